import type { Server } from 'node:http';
import type { CompanyQueueDto } from '@earshot/contracts';
import { prometheus, type ServiceContext } from '@earshot/kit';
import type { TestStack } from '@earshot/kit/testing';
import {
  claimNext,
  pipelineDeps,
  processJob,
  queueSettings,
  type ClaimedJob,
  type TranscriptionConfig,
} from '@earshot/transcription-service';
import { listenOnLoopback, makeTones, speechProviderStack, upload, wordsProvider } from './helpers';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const WORKERS = ['worker-1', 'worker-2'];

let provider: Server;
let stack: TestStack;
let ctx: ServiceContext<TranscriptionConfig>;
let adminA: string;
let adminB: string;
const audio = makeTones([{ start: 0.2, length: 0.5 }], 1);

beforeAll(async () => {
  provider = wordsProvider(['hello']);
  // No in-process worker: the test plays two workers, one job each, so a job stays claimed (the
  // provider "still answering") until the test finishes it; the order of events is the test's.
  stack = await speechProviderStack(await listenOnLoopback(provider), {
    TRANSCRIPTION_WORKER: 'false',
    TRANSCRIPTION_COMPANY_CONCURRENCY: '2',
  });
  ctx = stack.running.contexts.get('transcription') as ServiceContext<TranscriptionConfig>;
  adminA = await stack.tokenFor('ADMIN', A);
  adminB = await stack.tokenFor('ADMIN', B);
}, 60_000);
afterAll(async () => {
  await stack.close();
  await new Promise((resolve) => provider.close(resolve));
});

const queueOf = async (token: string) =>
  (await stack.as(token, { method: 'GET', url: '/api/transcripts/queue' })).json() as CompanyQueueDto;

/** Runs a claimed job to its end (the provider answers now). */
async function finish(job: ClaimedJob): Promise<void> {
  const outcome = await processJob(
    ctx,
    pipelineDeps(ctx.config),
    job,
    queueSettings(ctx.config),
    new AbortController().signal,
  );
  expect(outcome).toBe('completed');
}

test("a company's ten queued recordings delay another company's one by at most one job per worker", async () => {
  const filesOfA: string[] = [];
  for (let i = 0; i < 10; i++) filesOfA.push(await upload(stack, adminA, audio, `a-${i}.wav`));
  const fileOfB = await upload(stack, adminB, audio, 'b.wav');

  // Each company's ADMIN sees its own line, its cap and nothing of the other's.
  const before = await queueOf(adminA);
  expect(before).toMatchObject({ companyId: A, cap: 2, running: 0, pending: 10 });
  expect(before.items.map((i) => [i.fileId, i.position])).toEqual(filesOfA.map((id, i) => [id, i + 1]));
  expect(await queueOf(adminB)).toMatchObject({ companyId: B, pending: 1, items: [{ fileId: fileOfB, position: 1 }] });

  // Two workers, each holding one job until the test finishes it (oldest claim first), taking the
  // next as soon as theirs is done: the order of completions is what a company waits for.
  const held: ClaimedJob[] = [];
  const done: string[] = [];
  for (let step = 0; step < 30 && done.length < 11; step++) {
    for (const worker of WORKERS) {
      if (held.some((j) => j.workerId === worker)) continue;
      const job = await claimNext(ctx, worker, queueSettings(ctx.config));
      if (job) held.push(job);
    }
    if (step === 0) {
      // A's first is running; its next is now first in A's line.
      const during = await queueOf(adminA);
      expect(during).toMatchObject({ running: 1, pending: 9 });
      expect(during.items[0]).toEqual(expect.objectContaining({ fileId: filesOfA[1], position: 1 }));
    }
    const job = held.shift()!;
    await finish(job);
    done.push(job.fileId);
  }
  expect(done).toHaveLength(11);
  const finishedOfA = done.filter((id) => id !== fileOfB);
  // B waited for at most one of A's jobs per worker, not for A's whole queue.
  expect(done.indexOf(fileOfB)).toBeLessThan(done.indexOf(finishedOfA[3]!));
  expect(done.indexOf(fileOfB)).toBeLessThan(WORKERS.length);
  // A's own recordings still ran in the order they were queued.
  expect(finishedOfA).toEqual(filesOfA);
}, 300_000);

test("a company with its cap of jobs running waits while its queue holds more; another company's job is taken", async () => {
  const files = [];
  for (let i = 0; i < 3; i++) files.push(await upload(stack, adminA, audio, `cap-${i}.wav`));
  const settings = queueSettings(ctx.config);
  const first = (await claimNext(ctx, 'worker-x', settings))!;
  const second = (await claimNext(ctx, 'worker-y', settings))!;
  expect([first.fileId, second.fileId]).toEqual(files.slice(0, 2));
  // A has its two running: a third worker finds nothing it may take, though A's third waits.
  expect(await claimNext(ctx, 'worker-z', settings)).toBeNull();
  expect(await queueOf(adminA)).toMatchObject({ cap: 2, running: 2, pending: 1 });
  // ...while B's recording, queued after, is taken at once.
  const fileOfB = await upload(stack, adminB, audio, 'b-cap.wav');
  expect(await claimNext(ctx, 'worker-z', settings)).toMatchObject({ fileId: fileOfB, companyId: B });
  await finish(first);
  expect(await claimNext(ctx, 'worker-x', settings)).toMatchObject({ fileId: files[2], companyId: A });
}, 120_000);

test('a HOST_ADMIN names the company whose queue to read', async () => {
  const host = await stack.tokenFor('HOST_ADMIN', null);
  const res = await stack.as(host, { method: 'GET', url: '/api/transcripts/queue' });
  expect(res.statusCode).toBe(400);
  expect(res.json()).toMatchObject({ details: { field: 'query.companyId' } });
  const named = await stack.as(host, { method: 'GET', url: `/api/transcripts/queue?companyId=${B}` });
  expect(named.json()).toMatchObject({ companyId: B, cap: 2 });
  // A company's ADMIN naming another company still reads only their own line.
  const other = await stack.as(adminA, { method: 'GET', url: `/api/transcripts/queue?companyId=${B}` });
  expect(other.json()).toMatchObject({ companyId: A });
}, 30_000);

test('/metrics: the jobs by state, how long the due job has waited, and at its claim the wait it had', async () => {
  const metric = async (name: string) => (await prometheus.register.getSingleMetric(name)!.get()).values;
  const file = await upload(stack, adminB, audio, 'waited.wav');
  // Due ten minutes ago: it has waited that long for a worker.
  await ctx.database.query(
    `update transcription.jobs set next_attempt_at = now() - interval '10 minutes' where file_id = $1`,
    [file],
  );
  expect((await metric('earshot_transcription_jobs')).find((v) => v.labels.state === 'pending')?.value).toBe(1);
  expect((await metric('earshot_transcription_queue_oldest_wait_seconds'))[0]!.value).toBeGreaterThanOrEqual(600);
  const waits = async () => {
    const values = await metric('earshot_transcription_queue_wait_seconds');
    const of = (name: string) => values.find((v) => 'metricName' in v && v.metricName === name)!.value;
    return {
      count: of('earshot_transcription_queue_wait_seconds_count'),
      sum: of('earshot_transcription_queue_wait_seconds_sum'),
    };
  };
  const before = await waits();
  const job = await claimNext(ctx, 'worker-w', queueSettings(ctx.config));
  expect(job).toEqual({ fileId: file, companyId: B, attempts: 1, workerId: 'worker-w', traceparent: null });
  const after = await waits();
  expect(after.count).toBe(before.count + 1);
  expect(after.sum - before.sum).toBeGreaterThanOrEqual(600);
  expect((await metric('earshot_transcription_jobs')).find((v) => v.labels.state === 'pending')?.value).toBe(0);
  expect((await metric('earshot_transcription_queue_oldest_wait_seconds'))[0]!.value).toBe(0);
  await finish(job!);
}, 60_000);
