import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export const MANIFEST = 'manifest.json';
export const MANIFEST_FORMAT = 'earshot-backup/1';

export interface ManifestFile {
  /** Relative to the backup directory, with forward slashes. */
  path: string;
  size: number;
  sha256: string;
  /** An S3 object's content type, which a restore puts back with it. */
  contentType?: string;
}

export interface Manifest {
  format: typeof MANIFEST_FORMAT;
  createdAt: string;
  /** `pglite`: database/pgdata.tar.gz (the embedded data directory); `postgres`: database/earshot.sql (pg_dump). */
  database: { kind: 'pglite' | 'postgres'; file: string };
  /** `local`: the objects are under data/objects with the rest of DATA_DIR; `s3`: under objects/, by key. */
  storage: { driver: 'local' | 's3' };
  /** Applied migrations per service schema, as of the database snapshot. */
  schemaVersions: Record<string, string[]>;
  files: ManifestFile[];
}

/** Writes `source` to `target` (creating its folder) and returns what the manifest lists of it. */
export async function writeHashed(source: Readable, root: string, path: string): Promise<ManifestFile> {
  const target = join(root, ...path.split('/'));
  await mkdir(dirname(target), { recursive: true });
  const hash = createHash('sha256');
  let size = 0;
  await pipeline(
    source,
    new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
    }),
    createWriteStream(target, { mode: 0o600 }),
  );
  return { path, size, sha256: hash.digest('hex') };
}

export async function hashFile(path: string): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { size, sha256: hash.digest('hex') };
}

/** Every regular file under `root`, relative with forward slashes, skipping what `skip` names. */
export async function listFiles(root: string, skip: (path: string) => boolean = () => false): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string) => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      // A folder removed while we walk (a finished put's temporary folder): nothing left to copy.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const entry of entries) {
      const full = join(dir, entry.name);
      const path = relative(root, full).split(sep).join('/');
      if (skip(path)) continue;
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile()) found.push(path);
    }
  };
  await walk(root);
  return found.sort();
}

export async function writeManifest(root: string, manifest: Manifest): Promise<void> {
  await writeFile(join(root, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
}

export async function readManifest(root: string): Promise<Manifest> {
  let text: string;
  try {
    text = await readFile(join(root, MANIFEST), 'utf8');
  } catch {
    throw new Error(`${join(root, MANIFEST)} is missing: ${root} is not an Earshot backup`);
  }
  const manifest = JSON.parse(text) as Manifest;
  if (manifest.format !== MANIFEST_FORMAT)
    throw new Error(`${join(root, MANIFEST)}: unknown format ${String(manifest.format)} (expected ${MANIFEST_FORMAT})`);
  return manifest;
}

/**
 * Checks every file of a backup against its manifest: one line per altered, missing or extra
 * file (empty when the backup is whole).
 */
export async function verifyBackup(root: string, manifest?: Manifest): Promise<string[]> {
  const listed = manifest ?? (await readManifest(root));
  const problems: string[] = [];
  const present = new Set(await listFiles(root, (path) => path === MANIFEST));
  for (const file of listed.files) {
    if (!present.delete(file.path)) {
      problems.push(`missing: ${file.path}`);
      continue;
    }
    const actual = await hashFile(join(root, ...file.path.split('/')));
    if (actual.size !== file.size || actual.sha256 !== file.sha256)
      problems.push(
        `altered: ${file.path} (sha256 ${actual.sha256}, ${actual.size} bytes; the manifest says ${file.sha256}, ${file.size} bytes)`,
      );
  }
  for (const extra of present) problems.push(`extra: ${extra} (not in the manifest)`);
  return problems;
}
