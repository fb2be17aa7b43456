import { strFromU8, unzipSync } from 'fflate';
import type { ServiceContext } from '@earshot/kit';
import type { AllInOne } from '@earshot/gateway';
import type { TranscriptionConfig } from '@earshot/transcription-service';
import { longTranscript } from '../../../services/transcription/test/long-transcript';
import { apiCall, startApiProduct, twoCompanies, type ApiCall, type ApiProduct } from '../all-in-one';
import { makeHugeTranscript, storedTranscript } from '../transcription/helpers';
import { probe } from '../probe';

// A person's data export is written page by page, off any one long turn of the event loop: against
// the whole product in one process over real HTTP, /api/health answers while the parts of a person
// with a 20,000-segment transcript (read through the cursor, page by page), five hundred more
// transcripts and five thousand notifications are written, and every part arrives whole, as JSON,
// with each of them in it. 20,000 segments keep the file short; at 100,000 the slowest answer on a
// quiet machine was 68 ms (docs/security.md, Exports off the event loop).
const ADMIN_EMAIL = 'root@privacy-large.test';
const ADMIN_PASSWORD = 'privacy-large-password-123';
const HUGE_SEGMENTS = 20_000;
const MORE_TRANSCRIPTS = 500;
const NOTIFICATIONS = 5_000;
// The probe's bound is relative to the export, so that it holds on a machine of any speed and load:
// no answer waits a third of the export's time. An answer that waited for a part written in one turn
// of the event loop would take most of it (the huge transcript's part is most of the work); how
// long answers take while an export runs is measured, not asserted (docs/security.md).

let product: ApiProduct;
let earshot: AllInOne;
let origin: string;
let call: ApiCall;
let admin = '';
let personId = '';
let hugeFileId = '';

beforeAll(async () => {
  product = await startApiProduct(
    'privacy-large',
    { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    {
      TRANSCRIPTION_WORKER: 'false',
      // The probe must be answered: a 503 from load shedding (a loaded machine) would hide a blocked loop.
      LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
      LOAD_SHED_MAX_QUEUE_DELAY_MS: '0',
      RATE_LIMIT_MAX: '1000000',
    },
  );
  earshot = product.earshot;
  const ctx = earshot.running.contexts.get('transcription') as ServiceContext<TranscriptionConfig>;
  origin = await earshot.app.listen({ host: '127.0.0.1', port: 0 });
  call = apiCall(origin);
  const { ids, admins } = await twoCompanies(earshot, origin, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }, [
    'A-PRIVACY-LARGE',
    'B-PRIVACY-LARGE',
  ]);
  const [companyId] = ids;
  [admin] = admins;
  const registered = await call(admin, 'POST', '/users/register', {
    firstName: 'Hugo',
    lastName: 'Large',
    email: 'hugo@privacy-large.test',
    password: 'correct horse battery',
    role: 'USER',
  });
  expect(registered.status).toBe(201);
  personId = ((await registered.json()) as { _id: string })._id;
  await earshot.settle();

  // The person's recordings, written in SQL as the worker would have left them (uploaded by them).
  const small = await storedTranscript(
    earshot,
    ctx,
    companyId,
    'small call.wav',
    longTranscript({ words: 30, seconds: 12 }),
  );
  hugeFileId = await storedTranscript(
    earshot,
    ctx,
    companyId,
    'huge call.wav',
    longTranscript({ words: 30, seconds: 12 }),
  );
  await makeHugeTranscript(product.database, hugeFileId, HUGE_SEGMENTS);
  await product.database.query(
    'update transcription.transcripts set uploaded_by = $1 where file_id = any($2::uuid[])',
    [personId, [small, hugeFileId]],
  );
  await product.database.query(
    `insert into transcription.transcripts (id, file_id, company_id, storage_key, filename, original_name, mime_type,
       size, uploaded_by, uploaded_at, speakers, segments, completed_at)
     select gen_random_uuid(), gen_random_uuid(), company_id, storage_key || '-' || i, filename, 'call ' || i || '.wav',
       mime_type, size, uploaded_by, uploaded_at + i * interval '1 millisecond', speakers, segments, completed_at
     from transcription.transcripts, generate_series(1, $2::int - 1) as i
     where file_id = $1`,
    [small, MORE_TRANSCRIPTS],
  );
  await product.database.query(
    `insert into messaging.notifications (user_id, company_id, kind, title, body)
     select $1, $2, 'task_assigned', 'Call ' || i || ' is ready', 'Your recording was transcribed.'
     from generate_series(1, $3::int) as i`,
    [personId, companyId, NOTIFICATIONS],
  );
  // The probe's route answers once before anything is measured (its first answer compiles it).
  await (await fetch(`${origin}/api/health`)).arrayBuffer();
}, 180_000);
afterAll(async () => product?.close());

interface Job {
  status: string;
  download: string;
  parts: { service: string; counts: Record<string, number> }[];
}

/** The job once every service answered: each settle delivers what the services' last handlers emitted. */
async function finished(jobId: string): Promise<Job> {
  for (;;) {
    await earshot.settle();
    const job = (await (await call(admin, 'GET', `/privacy/jobs/${jobId}`)).json()) as Job;
    if (job.status === 'done') return job;
  }
}

test('while the parts of a person with a 20,000-segment transcript are written, health keeps answering; every part is whole', async () => {
  const probes = probe([() => fetch(`${origin}/api/health`)]);
  const started = performance.now();
  const accepted = await call(admin, 'POST', '/privacy/export', { userId: personId });
  expect(accepted.status).toBe(202);
  const { jobId } = (await accepted.json()) as { jobId: string };
  const job = await finished(jobId);
  const exporting = performance.now() - started;
  const { count, slowest, failures } = await probes.stop();

  expect(job.status).toBe('done');
  const countsOf = (service: string) => job.parts.find((part) => part.service === service)?.counts;
  expect(countsOf('transcription')).toEqual({ transcripts: MORE_TRANSCRIPTS + 1 });
  expect(countsOf('messaging')).toEqual({ notifications: NOTIFICATIONS, mail: 0 });
  expect(failures).toEqual([]);
  expect(count).toBeGreaterThan(2);
  expect(slowest).toBeLessThan(exporting / 3);

  const download = await fetch(`${origin}${job.download}`, { headers: { authorization: `Bearer ${admin}` } });
  expect(download.status).toBe(200);
  const zip = unzipSync(new Uint8Array(await download.arrayBuffer()));
  const transcription = JSON.parse(strFromU8(zip['transcription.json']!)) as {
    service: string;
    subject: { id: string };
    transcripts: { fileId: string; uploadedBy: string; segments: { text: string }[] }[];
  };
  expect(transcription).toMatchObject({ service: 'transcription', subject: { kind: 'user', id: personId } });
  expect(transcription.transcripts).toHaveLength(MORE_TRANSCRIPTS + 1);
  expect(transcription.transcripts.every((t) => t.uploadedBy === personId)).toBe(true);
  const huge = transcription.transcripts.find((t) => t.fileId === hugeFileId)!;
  expect(huge.segments).toHaveLength(HUGE_SEGMENTS);
  expect(huge.segments.at(-1)!.text).toBe(`word${HUGE_SEGMENTS - 1} again`);
  const messaging = JSON.parse(strFromU8(zip['messaging.json']!)) as { notifications: { title: string }[] };
  expect(messaging.notifications).toHaveLength(NOTIFICATIONS);
  expect(new Set(messaging.notifications.map((n) => n.title)).size).toBe(NOTIFICATIONS);
  // Read over many pages, the lists carry nothing of how they were read (each page's sort keys).
  for (const name of ['messaging.json', 'transcription.json']) expect(strFromU8(zip[name]!)).not.toContain('sortKey');
}, 600_000);
