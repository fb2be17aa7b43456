import { unzipSync } from 'fflate';
import { exportTooLargeMessage } from '@earshot/contracts';
import type { ServiceContext } from '@earshot/kit';
import type { AllInOne } from '@earshot/gateway';
import type { TranscriptionConfig } from '@earshot/transcription-service';
import { exportRenderer } from '../../../services/transcription/src/services/exports/renderer';
import { longTranscript } from '../../../services/transcription/test/long-transcript';
import { apiCall, startApiProduct, twoCompanies, type ApiCall, type ApiProduct } from '../all-in-one';
import { makeHugeTranscript, storedTranscript } from './helpers';
import { probe } from '../probe';

// Exports render in threads, off the event loop that serves requests, taken in turn by company:
// against the whole product over real HTTP, /api/health and another company's transcript answer
// while a 100,000-segment transcript renders; an export past its time or memory limit is a 413
// naming the limit and the next one works; and one company's queue of ZIPs does not hold another's export back.
const ADMIN_EMAIL = 'root@exports.test';
const ADMIN_PASSWORD = 'exports-password-123';
const HUGE_SEGMENTS = 100_000;
/** A's ZIPs in the test of turns: each renders long enough for the others to queue behind it. */
const MEDIUM_SEGMENTS = 20_000;
// The probes' bound is relative to the rendering, so that it holds on a machine of any speed and
// load: no answer waits a third of the rendering's time. An answer that waited for the rendering
// would take all of it; how long answers take meanwhile is measured by `npm run bench:export`.

let product: ApiProduct;
let earshot: AllInOne;
let ctx: ServiceContext<TranscriptionConfig>;
let origin: string;
let call: ApiCall;
const tokens = { a: '', b: '' };
const files = { huge: '', medium: '', small: '', other: '' };

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
  call = apiCall(origin);
  const { ids, admins } = await twoCompanies(earshot, origin, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }, [
    'A-EXPORTS',
    'B-EXPORTS',
  ]);
  [tokens.a, tokens.b] = admins;
  const [a, b] = ids;
  const completed = (companyId: string, name: string) =>
    storedTranscript(earshot, ctx, companyId, name, longTranscript({ words: 300, seconds: 120 }));
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

test('while a 100,000-segment transcript renders, health and another company’s transcript keep answering', async () => {
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
  expect(slowest).toBeLessThan(rendering / 3);
}, 300_000);

test.each([
  ['time', { EXPORT_TIMEOUT_MS: 100 }, { kind: 'time', seconds: 0.1 }],
  ['memory', { EXPORT_MAX_HEAP_MB: 32 }, { kind: 'memory', megabytes: 32 }],
] as const)(
  'an export past its %s limit is a 413 naming the limit; its thread is replaced and the next export works',
  async (_name, limit, named) => {
    // Read from the service's configuration per export: a kept thread of another heap limit is replaced.
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
