import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openThrowawayDatabase, startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '@earshot/kit/testing';
import type { Database } from '@earshot/kit';

// The product as an operator runs it (`npm start`, its own process, so the instrumentations patch
// the real http and pg modules), on a throwaway PostgreSQL database, exporting OTLP/JSON to a
// receiver on loopback: one upload must be one trace from the request to the finished transcript.
const root = join(import.meta.dirname, '..', '..', '..');
const PASSWORD = 'tracing-demo-password-1';

let receiver: OtlpReceiver;
let database: Database;
let child: ChildProcess;
let dataDir: string;
let origin: string;
let output = '';

/** A short spoken clip: espeak-ng says it, sox makes it the 16 kHz mono a phone call would be. */
function spokenCall(dir: string): Buffer {
  const said = join(dir, 'said.wav');
  const call = join(dir, 'call.wav');
  execFileSync('espeak-ng', ['-w', said, 'hello, this call is traced from the upload to the transcript']);
  execFileSync('sox', [said, '-r', '16000', '-c', '1', call]);
  return readFileSync(call);
}

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  database = await openThrowawayDatabase(process.env.DATABASE_URL!, 'earshot_tracing', 2);
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${(await database.query<{ name: string }>('select current_database() as name'))[0]!.name}`;
  dataDir = mkdtempSync(join(tmpdir(), 'earshot-tracing-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    WEB_DIST: dataDir,
    SKIP_WEB_BUILD: 'true',
    DATABASE_URL: url.toString(),
    SEED_DEMO: 'true',
    DEMO_PASSWORD: PASSWORD,
    ADMIN_PASSWORD: 'tracing-admin-password-1',
    LOG_LEVEL: 'warn',
    OUTBOX_POLL_MS: '50',
    LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
    LOAD_SHED_MAX_QUEUE_DELAY_MS: '0',
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    // Spans go out in small, quick batches, so the test waits on arrival, not on a 5 s schedule.
    OTEL_BSP_SCHEDULE_DELAY: '100',
  };
  delete env.KAFKA_BROKERS;
  delete env.OTEL_SERVICE_NAME;
  child = spawn(process.execPath, [join(root, 'scripts', 'start.mjs')], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Earshot is running at http:\/\/localhost:(\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    });
    child.on('exit', () => reject(new Error(`the all-in-one exited before its banner:\n${output}`)));
  });
  origin = `http://127.0.0.1:${port}`;
}, 240_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  await receiver?.close();
  await database?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function signIn(email: string): Promise<string> {
  const login = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  expect(login.status).toBe(200);
  return login.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
}

const inTrace = (spans: ReceivedSpan[], traceId: string) => spans.filter((s) => s.traceId === traceId);

test('one upload is one trace: the request, its events published and handled, its SQL, the transcription job', async () => {
  const cookie = await signIn('admin@acme.test');
  const form = new FormData();
  form.append('file', new Blob([spokenCall(dataDir)], { type: 'audio/wav' }), 'traced-call.wav');
  const upload = await fetch(`${origin}/api/files/upload`, {
    method: 'POST',
    headers: { cookie, 'x-requested-with': 'XMLHttpRequest' },
    body: form,
  });
  expect(upload.status).toBe(201);
  const fileId = ((await upload.json()) as { _id: string })._id;

  // The request's own server span (the instrumented http module) names the trace.
  const request = await receiver.until((spans) =>
    spans.find((s) => s.kind === 2 && Object.values(s.attributes).some((v) => v === '/api/files/upload')),
  );
  // The job span ends once the transcript is stored: it closes the trace.
  const job = await receiver.until((spans) =>
    inTrace(spans, request.traceId).find((s) => s.name === 'transcription job' && s.attributes['earshot.job.outcome']),
  );
  expect(job.attributes['earshot.job.outcome']).toBe('completed');
  expect(job.attributes['earshot.file.id']).toBe(fileId);

  const status = await fetch(`${origin}/api/transcripts/file/${fileId}`, {
    headers: { cookie, 'x-requested-with': 'XMLHttpRequest' },
  });
  expect(((await status.json()) as { status: string }).status).toBe('completed');

  const trace = inTrace(receiver.spans, request.traceId);
  const published = trace.find((s) => s.kind === 4 && s.attributes['earshot.event.type'] === 'file.uploaded');
  const handled = trace.find(
    (s) =>
      s.kind === 5 &&
      s.attributes['messaging.consumer.group.name'] === 'transcription' &&
      s.attributes['earshot.event.type'] === 'file.uploaded',
  );
  const sql = trace.find(
    (s) => s.attributes['db.system'] === 'postgresql' || s.attributes['db.system.name'] === 'postgresql',
  );
  expect(published).toBeDefined();
  expect(handled).toBeDefined();
  expect(sql).toBeDefined();
  // Causes come before effects: the handling is a child of the publish, the job of the handling's trace.
  expect(handled!.parentSpanId).toBe(published!.spanId);
  // Each span says whose work it is: the all-in-one runs every service in one process.
  expect(request.attributes['earshot.service']).toBe('gateway');
  expect(published!.attributes['earshot.service']).toBe('file');
  expect(handled!.attributes['earshot.service']).toBe('transcription');
  expect(job.attributes['earshot.service']).toBe('transcription');
  expect(sql!.attributes['earshot.service']).toEqual(expect.any(String));
  for (const span of trace) expect(span.attributes['earshot.service']).toEqual(expect.any(String));
  // The engine's call is a span of the job.
  expect(trace.find((s) => s.name === 'transcription engine' && s.parentSpanId === job.spanId)).toBeDefined();
  expect(request.resource['service.name']).toBe('earshot');
}, 300_000);
