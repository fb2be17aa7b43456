// `npm run bench:backup`: backup, verify and restore times of an Earshot holding 1,000 recordings
// (64 KiB each on local storage) and 100,000 transcript segments (100 per recording, in the
// transcript rows and the search index), seeded with SQL for speed. The embedded database by
// default; with DATABASE_URL, PostgreSQL (a throwaway database for the source and one for the
// restore, both dropped at the end). Figures: docs/performance.md.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createThrowawayDatabase } from '@earshot/kit/testing';
import { createAllInOne } from '@earshot/gateway';
import { runBackupCommand } from './main';

const RECORDINGS = 1000;
const SEGMENTS_PER_RECORDING = 100;
const OBJECT_BYTES = 64 * 1024;

const serverUrl = process.env.DATABASE_URL;
const drops: (() => Promise<void>)[] = [];

async function freshDatabase(url: string): Promise<string> {
  const throwaway = await createThrowawayDatabase(url, 'earshot_bench_backup');
  drops.push(() => throwaway.drop());
  return throwaway.url;
}

const env = (dataDir: string, databaseUrl: string | undefined): Record<string, string> => ({
  SEED_DEMO: 'false',
  LOG_LEVEL: 'silent',
  DATA_DIR: dataDir,
  WEB_DIST: dataDir,
  ADMIN_EMAIL: 'root@bench-backup.test',
  ADMIN_PASSWORD: 'bench-backup-password-1',
  ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
});

async function timed(label: string, work: () => Promise<number>): Promise<number> {
  const started = performance.now();
  const code = await work();
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`${label} exited ${code}`);
  return seconds;
}

const root = mkdtempSync(join(tmpdir(), 'earshot-bench-backup-'));
try {
  const sourceDir = join(root, 'source');
  const sourceUrl = serverUrl ? await freshDatabase(serverUrl) : undefined;
  const earshot = await createAllInOne({ env: env(sourceDir, sourceUrl) });
  const companyId = randomUUID();
  const fileIds = Array.from({ length: RECORDINGS }, () => randomUUID());
  const seedStarted = performance.now();
  await earshot.database.query(
    `insert into file.files (id, company_id, storage_key, filename, original_name, mime_type, size, status, transcription_status)
     select id, $1::uuid, $1::text || '/' || id, id || '.wav', 'call ' || n || '.wav', 'audio/wav', ${OBJECT_BYTES}, 'completed', 'completed'
     from unnest($2::uuid[]) with ordinality as t(id, n)`,
    [companyId, fileIds],
  );
  await earshot.database.query(
    `insert into transcription.transcripts (id, file_id, company_id, storage_key, filename, original_name, mime_type, size,
       uploaded_at, engine, duration, speakers, segments, completed_at)
     select gen_random_uuid(), id, $1::uuid, $1::text || '/' || id, id || '.wav', 'call.wav', 'audio/wav', ${OBJECT_BYTES}, now(),
       'pocketsphinx', ${SEGMENTS_PER_RECORDING * 3}, '[{"id":"S1","name":"Agent"}]'::jsonb,
       (select jsonb_agg(jsonb_build_object('id', 's' || k, 'speaker', 'S1', 'start', k * 3, 'end', k * 3 + 3,
          'text', 'segment ' || k || ' of the call about order number ' || (k * 7919 % 10007)))
        from generate_series(1, ${SEGMENTS_PER_RECORDING}) k), now()
     from unnest($2::uuid[]) as t(id)`,
    [companyId, fileIds],
  );
  await earshot.database.query(
    `insert into transcription.search_segments (file_id, ord, segment_id, speaker_name, start, text, config, tsv)
     select id, k, 's' || k, 'Agent', k * 3, 'segment ' || k || ' of the call about order number ' || (k * 7919 % 10007),
       'simple', to_tsvector('simple', 'segment ' || k || ' of the call about order number ' || (k * 7919 % 10007))
     from unnest($1::uuid[]) as t(id), generate_series(1, ${SEGMENTS_PER_RECORDING}) k`,
    [fileIds],
  );
  mkdirSync(join(sourceDir, 'objects', companyId), { recursive: true });
  for (const id of fileIds) writeFileSync(join(sourceDir, 'objects', companyId, id), randomBytes(OBJECT_BYTES));
  console.log(
    `seeded ${RECORDINGS} recordings and ${RECORDINGS * SEGMENTS_PER_RECORDING} segments in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s (${sourceUrl ? 'PostgreSQL' : 'embedded database'})`,
  );

  const backupDir = join(root, 'backup');
  const quiet = { print: () => undefined };
  const backup = await timed('backup', () =>
    runBackupCommand('backup', ['--to', backupDir], { ...quiet, env: env(sourceDir, sourceUrl) }),
  );
  await earshot.close();
  const verify = await timed('verify', () => runBackupCommand('backup', ['verify', backupDir], quiet));
  const restoredDir = join(root, 'restored');
  const restoredUrl = serverUrl ? await freshDatabase(serverUrl) : undefined;
  const restore = await timed('restore', () =>
    runBackupCommand('restore', ['--from', backupDir], { ...quiet, env: env(restoredDir, restoredUrl) }),
  );

  const restored = await createAllInOne({ env: env(restoredDir, restoredUrl) });
  const [counts] = await restored.database.query<{ files: number; segments: number }>(
    `select (select count(*)::int from file.files) as files, (select count(*)::int from transcription.search_segments) as segments`,
  );
  await restored.close();
  if (counts?.files !== RECORDINGS || counts.segments !== RECORDINGS * SEGMENTS_PER_RECORDING)
    throw new Error(`restored ${JSON.stringify(counts)}, expected every recording and segment`);
  console.log(`backup (while running): ${backup.toFixed(1)} s`);
  console.log(`verify:                 ${verify.toFixed(1)} s`);
  console.log(`restore:                ${restore.toFixed(1)} s`);
  console.log(`restored and started: ${counts.files} recordings, ${counts.segments} segments`);
} finally {
  rmSync(root, { recursive: true, force: true });
  for (const drop of drops) await drop();
}
