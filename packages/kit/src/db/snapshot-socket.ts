import { chmodSync, existsSync, unlinkSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import type { Database } from './database';

/** The socket, in the data directory, through which a running all-in-one hands out snapshots. */
export const SNAPSHOT_SOCKET = 'database.sock';
const SNAPSHOT_PATH = '/snapshot';
const MIGRATIONS_HEADER = 'x-earshot-migrations';

export const snapshotSocketOf = (dataDir: string) => join(resolve(dataDir), SNAPSHOT_SOCKET);

/**
 * Serves the embedded database's snapshots on a Unix socket in DATA_DIR, readable by the data
 * directory's owner only (mode 0600). No TCP port and no route: whoever may open the socket may
 * read the data directory anyway, and a reverse proxy on loopback cannot reach it.
 */
export async function serveDatabaseSnapshots(database: Database, dataDir: string): Promise<() => Promise<void>> {
  const snapshot = database.snapshot?.bind(database);
  if (!snapshot) throw new Error('Only the embedded database hands out snapshots');
  const path = await assertDataDirFree(dataDir);
  // Left behind by a process that ended without closing: nobody listens on it.
  if (existsSync(path)) unlinkSync(path);
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url !== SNAPSHOT_PATH) {
      res.writeHead(404).end();
      return;
    }
    snapshot().then(
      ({ migrations, archive }) => {
        res.writeHead(200, {
          'content-type': 'application/gzip',
          'content-length': archive.size,
          [MIGRATIONS_HEADER]: JSON.stringify(migrations),
        });
        Readable.fromWeb(archive.stream() as never).pipe(res);
      },
      (error: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(error.message),
    );
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(path, () => done());
  });
  chmodSync(path, 0o600);
  return () =>
    new Promise<void>((done) => {
      server.close(() => done());
      server.closeAllConnections();
    });
}

/**
 * Throws when another live process serves the data directory's database: PGlite must never open
 * the same files twice. Returns the socket's path.
 */
export async function assertDataDirFree(dataDir: string): Promise<string> {
  const path = snapshotSocketOf(dataDir);
  if (existsSync(path) && (await snapshotSocketAnswers(path)))
    throw new Error(`Another Earshot process holds the data directory ${resolve(dataDir)} (${path} answers)`);
  return path;
}

/** True when a process listens on the snapshot socket at `path`. */
function snapshotSocketAnswers(path: string): Promise<boolean> {
  return new Promise((done) => {
    const req = request({ socketPath: path, path: '/', method: 'HEAD' }, (res) => {
      res.resume();
      done(true);
    });
    req.on('error', () => done(false));
    req.end();
  });
}

/**
 * A snapshot from the process serving `dataDir`, or null when none runs (no socket, or nobody
 * listening on it): then the caller may open the data directory itself.
 */
export function requestDatabaseSnapshot(
  dataDir: string,
): Promise<{ migrations: Record<string, string[]>; archive: Readable } | null> {
  const path = snapshotSocketOf(dataDir);
  if (!existsSync(path)) return Promise.resolve(null);
  return new Promise((done, fail) => {
    const req = request({ socketPath: path, path: SNAPSHOT_PATH, method: 'GET' }, (res) => {
      if (res.statusCode !== 200) {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          fail(new Error(`The running Earshot could not snapshot its database: ${Buffer.concat(chunks).toString()}`)),
        );
        return;
      }
      const migrations = JSON.parse(String(res.headers[MIGRATIONS_HEADER] ?? '{}')) as Record<string, string[]>;
      done({ migrations, archive: res });
    });
    req.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNREFUSED' || error.code === 'ENOENT' ? done(null) : fail(error),
    );
    req.end();
  });
}
