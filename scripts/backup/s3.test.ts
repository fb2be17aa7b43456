import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { globalAgent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { Readable } from 'node:stream';
import S3rver from 's3rver';
import { openDatabase, S3Storage } from '@earshot/kit';
import { runBackupCommand } from './main';

// Objects in S3 (a loopback s3rver) and the embedded database of a stopped Earshot: the backup
// opens the data directory itself (no process serves it) and copies every object of the bucket
// with its content type; the restore refuses a bucket that holds anything, and fills an empty one.
const root = mkdtempSync(join(tmpdir(), 'earshot-backup-s3-'));
let s3rver: S3rver;
let endpoint: string;

const s3Env = (bucket: string, dataDir: string) => ({
  DATA_DIR: dataDir,
  STORAGE_DRIVER: 's3',
  S3_ENDPOINT: endpoint,
  S3_BUCKET: bucket,
  S3_ACCESS_KEY: 'S3RVER',
  S3_SECRET_KEY: 'S3RVER',
});
const bucket = (name: string) =>
  new S3Storage({ endpoint, bucket: name, accessKey: 'S3RVER', secretKey: 'S3RVER', region: 'us-east-1' });
const run = async (command: 'backup' | 'restore', args: string[], env: Record<string, string>) => {
  const lines: string[] = [];
  const code = await runBackupCommand(command, args, { env, print: (line) => lines.push(line) });
  return { code, output: lines.join('\n') };
};

beforeAll(async () => {
  s3rver = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: join(root, 's3') });
  const { port } = (await s3rver.run()) as { port: number };
  endpoint = `http://127.0.0.1:${port}`;
}, 60_000);
afterAll(async () => {
  await s3rver?.close();
  rmSync(root, { recursive: true, force: true });
});

test('objects in S3 are backed up with their content types and restored into an empty bucket only', async () => {
  const sourceDir = join(root, 'source');
  const database = await openDatabase({ dataDir: sourceDir });
  await database.query('create schema file');
  await database.query('create table file.schema_migrations (name text primary key)');
  await database.query(`insert into file.schema_migrations values ('0001_files')`);
  await database.close();
  const objects = {
    'company-a/call-1': { bytes: randomBytes(70_000), type: 'audio/wav' },
    'company-b/call-2': { bytes: randomBytes(1_000), type: 'audio/mpeg' },
  };
  const source = bucket('earshot-source');
  for (const [key, object] of Object.entries(objects))
    await source.put(key, Readable.from([object.bytes]), { contentType: object.type });

  const backupDir = join(root, 'backup');
  const taken = await run('backup', ['--to', backupDir], s3Env('earshot-source', sourceDir));
  expect(taken).toMatchObject({ code: 0 });
  const manifest = JSON.parse(readFileSync(join(backupDir, 'manifest.json'), 'utf8')) as {
    storage: { driver: string };
    schemaVersions: Record<string, string[]>;
    files: { path: string; contentType?: string }[];
  };
  expect(manifest.storage.driver).toBe('s3');
  expect(manifest.schemaVersions).toEqual({ file: ['0001_files'] });
  expect(manifest.files.filter((f) => f.path.startsWith('objects/'))).toEqual([
    expect.objectContaining({ path: 'objects/company-a/call-1', contentType: 'audio/wav' }),
    expect.objectContaining({ path: 'objects/company-b/call-2', contentType: 'audio/mpeg' }),
  ]);

  await bucket('earshot-used').put('left/over', Readable.from([Buffer.from('x')]), { contentType: 'text/plain' });
  const refused = await run('restore', ['--from', backupDir], s3Env('earshot-used', join(root, 'unused')));
  expect(refused.code).toBe(1);
  expect(refused.output).toContain('The S3 bucket earshot-used is not empty (it holds left/over)');
  const local = await run('restore', ['--from', backupDir], { DATA_DIR: join(root, 'unused') });
  expect(local.output).toContain('set STORAGE_DRIVER=s3');

  const restoredDir = join(root, 'restored');
  const restored = await run('restore', ['--from', backupDir], s3Env('earshot-restored', restoredDir));
  expect(restored).toMatchObject({ code: 0 });
  // s3rver cuts keep-alive connections idle for 5 s, and the database restore took longer: read
  // back on new connections rather than on one the server may be closing.
  globalAgent.destroy();
  const target = bucket('earshot-restored');
  for (const [key, object] of Object.entries(objects)) {
    expect(await buffer(await target.get(key))).toEqual(object.bytes);
    expect((await target.stat(key))?.contentType).toBe(object.type);
  }
  const reopened = await openDatabase({ dataDir: restoredDir });
  expect(await reopened.query('select name from file.schema_migrations')).toEqual([{ name: '0001_files' }]);
  await reopened.close();
}, 600_000);
