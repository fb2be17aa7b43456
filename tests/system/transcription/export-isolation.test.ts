import { randomUUID } from 'node:crypto';
import { unzipSync } from 'fflate';
import { eventDefinition, exportTooLargeMessage } from '@earshot/contracts';
import { buildEnvelope, CSRF_HEADER, type ServiceContext } from '@earshot/kit';
import type { AllInOne } from '@earshot/gateway';
import type { TranscriptionConfig } from '@earshot/transcription-service';
import { saveResult } from '../../../services/transcription/src/repositories/transcripts';
import { exportRenderer } from '../../../services/transcription/src/services/exports/renderer';
import { longTranscript } from '../../../services/transcription/test/long-transcript';
import { startApiProduct, type ApiProduct } from '../all-in-one';
import { makeHugeTranscript } from './helpers';
import { probe } from '../probe';

// Exports render in threads, off the event loop that serves requests, taken in turn by company:
// against the whole product over real HTTP, /api/health and another company's export answer while
// a 100,000-segment transcript renders; an export past its time limit is a 413 naming the limit and
// the next one works; and one company's queue of ZIPs does not hold another's export back.
const ADMIN_EMAIL = 'root@exports.test';
const ADMIN_PASSWORD = 'exports-password-123';
const HUGE_SEGMENTS = 100_000;
/** A's ZIPs in the test of turns: each renders long enough for the others to queue behind it. */
const MEDIUM_SEGMENTS = 20_000;
// The bound the probes hold: 500 ms, or on a machine so busy that the rendering takes over 5 s, a
// tenth of the rendering's time. An answer that waited for the rendering would take all of it.
const PROBE_BOUND_MS = 500;

let product: ApiProduct;
let earshot: AllInOne;
let ctx: ServiceContext<TranscriptionConfig>;
let origin: string;
const tokens = { a: '', b: '' };
const files = { huge: '', medium: '', small: '', other: '' };

async function call(token: string, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${origin}/api${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      [CSRF_HEADER]: 'XMLHttpRequest',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function company(host: string, code: string): Promise<string> {
  const res = await call(host, 'POST', '/companies', { name: code, code, domain: code.toLowerCase(), maxUsers: 5 });
  expect(res.status).toBe(201);
  return ((await res.json()) as { _id: string })._id;
}

/** A recording as the file service announces it, its transcript stored as the worker stores one. */
async function completed(companyId: string, name: string): Promise<string> {
  const fileId = randomUUID();
  const envelope = buildEnvelope({
    type: 'file.uploaded',
    companyId,
    actor: { type: 'system', id: null },
    data: {
      id: fileId,
      storageKey: fileId,
      originalName: name,
      mimeType: 'audio/wav',
      size: 1,
      clientId: null,
      uploadedBy: null,
    },
  });
  await earshot.bus.publish([{ topic: eventDefinition('file.uploaded').topic, key: companyId, envelope }]);
  await earshot.settle();
  const { speakers, speakerSegments: segments } = longTranscript({ words: 300, seconds: 120 }).metadata;
  await ctx.transact((tx) =>
    saveResult(tx, fileId, {
      engine: 'test',
      duration: 120,
      speakers,
      segments,
      peaks: { version: 1, duration: 120, pointsPerSecond: 10, length: 0, data: [] },
    }),
  );
  await earshot.database.query(`update transcription.jobs set status = 'completed' where file_id = $1`, [fileId]);
  return fileId;
}

const exportOf = (token: string, fileId: string, format: string) =>
  call(token, 'GET', `/transcripts/${fileId}/export?format=${format}`);

beforeAll(async () => {
  product = await startApiProduct(
    'exports',
    { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    {
      TRANSCRIPTION_WORKER: 'false',
      EXPORT_WORKERS: '1',
      EXPORT_COMPANY_CONCURRENCY: '1',
      EXPORT_TIMEOUT_MS: '600000',
      // The probes must be answered: a 503 from load shedding (a loaded machine) would hide a blocked loop.
      LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
      LOAD_SHED_MAX_QUEUE_DELAY_MS: '0',
      RATE_LIMIT_MAX: '1000000',
    },
  );
  earshot = product.earshot;
  ctx = earshot.running.contexts.get('transcription') as ServiceContext<TranscriptionConfig>;
  origin = await earshot.app.listen({ host: '127.0.0.1', port: 0 });
  const login = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [CSRF_HEADER]: 'XMLHttpRequest' },
    body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
  });
  expect(login.status).toBe(200);
  const hostId = ((await login.json()) as { user: { _id: string } }).user._id;
  const host = await earshot.signer.sign({ userId: hostId, companyId: null, role: 'HOST_ADMIN', email: ADMIN_EMAIL });
  const a = await company(host, 'A-EXPORTS');
  const b = await company(host, 'B-EXPORTS');
  await earshot.settle();
  tokens.a = await earshot.signer.sign({ userId: randomUUID(), companyId: a, role: 'ADMIN', email: 'a@a.test' });
  tokens.b = await earshot.signer.sign({ userId: randomUUID(), companyId: b, role: 'ADMIN', email: 'b@b.test' });
  files.huge = await completed(a, 'huge call.wav');
  await makeHugeTranscript(earshot.database, files.huge, HUGE_SEGMENTS);
  files.medium = await completed(a, 'medium call.wav');
  await makeHugeTranscript(earshot.database, files.medium, MEDIUM_SEGMENTS);
  files.small = await completed(a, 'small call.wav');
  files.other = await completed(b, 'other call.wav');
  // The probes' routes answer once before anything is measured (their first answer compiles them).
  await (await fetch(`${origin}/api/health`)).arrayBuffer();
  expect((await call(tokens.b, 'GET', `/transcripts/file/${files.other}`)).status).toBe(200);
}, 120_000);
afterAll(async () => product?.close());

test('while a 100,000-segment transcript renders, health and another company’s transcript answer within the bound', async () => {
  const probes = probe([
    () => fetch(`${origin}/api/health`),
    () => call(tokens.b, 'GET', `/transcripts/file/${files.other}`),
  ]);
  const started = performance.now();
  const res = await exportOf(tokens.a, files.huge, 'docx');
  const rendering = performance.now() - started;
  const { count, slowest, failures } = await probes.stop();
  expect(res.status).toBe(200);
  const document = unzipSync(new Uint8Array(await res.arrayBuffer()));
  expect(new TextDecoder().decode(document['word/document.xml']!)).toContain(`word${HUGE_SEGMENTS - 1}`);
  expect(failures).toEqual([]);
  expect(count).toBeGreaterThan(2);
  expect(slowest).toBeLessThan(Math.max(PROBE_BOUND_MS, rendering / 10));
}, 300_000);

test.each([
  ['time', { EXPORT_TIMEOUT_MS: 100 }, { kind: 'time', seconds: 0.1 }],
  ['memory', { EXPORT_MAX_HEAP_MB: 32 }, { kind: 'memory', megabytes: 32 }],
] as const)(
  'an export past its %s limit is a 413 naming the limit; its thread is replaced and the next export works',
  async (_name, limit, named) => {
    // Read from the service's configuration per export (the heap limit when a thread starts).
    const { EXPORT_TIMEOUT_MS, EXPORT_MAX_HEAP_MB } = ctx.config;
    Object.assign(ctx.config, limit);
    try {
      const res = await exportOf(tokens.a, files.huge, 'srt');
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({ message: exportTooLargeMessage(named), code: 'PAYLOAD_TOO_LARGE' });
    } finally {
      Object.assign(ctx.config, { EXPORT_TIMEOUT_MS, EXPORT_MAX_HEAP_MB });
    }
    expect(exportRenderer(ctx).load).toEqual({ rendering: 0, waiting: 0 });
    const next = await exportOf(tokens.a, files.small, 'srt');
    expect(next.status).toBe(200);
    expect(await next.text()).toContain('-->');
  },
  300_000,
);

test('one thread: another company’s export goes before a company’s queued ZIPs are done', async () => {
  const renderer = exportRenderer(ctx);
  const finished: string[] = [];
  const zip = (n: number) =>
    call(tokens.a, 'POST', '/transcripts/export', { fileIds: [files.medium, files.small], format: 'txt' }).then(
      async (res) => {
        expect(res.status).toBe(200);
        await res.arrayBuffer();
        finished.push(`A${n}`);
      },
    );
  const queued = [1, 2, 3, 4, 5].map(zip);
  // Ordering, not timing: B asks once at least two of A's ZIPs wait behind the one rendering.
  while (renderer.load.waiting < 2) await new Promise((resolve) => setTimeout(resolve, 10));
  const other = exportOf(tokens.b, files.other, 'txt').then(async (res) => {
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    finished.push('B');
  });
  await Promise.all([...queued, other]);
  // First in, first out, B's export would be last: it waits for the ZIP rendering when it asked, not A's queue.
  expect(finished).toHaveLength(6);
  expect(finished.indexOf('B')).toBeLessThan(finished.length - 1);
}, 300_000);
