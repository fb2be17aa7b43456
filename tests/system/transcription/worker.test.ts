import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServiceContext } from '@earshot/kit';
import { createTestStack, serveUnmeteredCredits, type TestStack } from '@earshot/kit/testing';
import { fileService } from '@earshot/file-service';
import {
  claimNext,
  createWorker,
  pipelineDeps,
  processJob,
  queueSettings,
  transcriptionService,
  type TranscriptionConfig,
} from '@earshot/transcription-service';
import { jobDir, workRootOf } from '../../../services/transcription/src/services/work-dirs';
import { emitted, getTranscript, makeCall, tmp, upload, waitForStatus, words } from './helpers';

const ACME = '11111111-1111-4111-8111-111111111111';

function shortSpeech(): Buffer {
  const path = join(tmp(), 'short.wav');
  execFileSync('espeak-ng', ['-v', 'en-us+m1', '-s', '170', '-w', path, 'one two three four five']);
  return readFileSync(path);
}

describe('a worker that dies mid-job', () => {
  let stack: TestStack;
  let user: string;
  let ctx: ServiceContext<TranscriptionConfig>;

  beforeAll(async () => {
    // No in-process worker: the test plays the workers. A lease "runs out" when the test backdates it.
    stack = await createTestStack([fileService, transcriptionService], {
      TRANSCRIPTION_WORKER: 'false',
      TRANSCRIPTION_MAX_ATTEMPTS: '2',
      TRANSCRIPTION_POLL_MS: '100',
      // Jobs the tests leave claimed stay running (one company's): the cap must not be what stops a claim here.
      TRANSCRIPTION_COMPANY_CONCURRENCY: '10',
    });
    // No tenant service in this stack: nothing here is metered.
    serveUnmeteredCredits(stack.database);
    user = await stack.tokenFor('USER', ACME);
    ctx = stack.running.contexts.get('transcription') as ServiceContext<TranscriptionConfig>;
  }, 60_000);
  afterAll(async () => stack.close());

  /** The holder's lease ran out (its worker stopped heart-beating): as if the lease time had passed. */
  const expireLease = (fileId: string) =>
    stack.database.query(
      `update transcription.jobs set locked_until = now() - interval '1 second' where file_id = $1`,
      [fileId],
    );

  test('its job is taken over after the lease expires and completed exactly once', async () => {
    const call = makeCall();
    const fileId = await upload(stack, user, call.audio, 'call.wav');
    const settings = queueSettings(ctx.config);
    // Worker A claims the job, then "dies": it never heart-beats again.
    const dead = await claimNext(ctx, 'worker-a', settings);
    expect(dead).toMatchObject({ fileId, attempts: 1, workerId: 'worker-a' });
    // While A's lease runs, nobody else can take the job.
    expect(await claimNext(ctx, 'worker-c', settings)).toBeNull();
    await expireLease(fileId);

    // Worker B (a real worker loop) takes it over now that the lease has expired, and finishes it.
    const live = createWorker(ctx, { id: 'worker-b' });
    await live.start();
    try {
      const status = await waitForStatus(stack, user, fileId);
      expect(status).toMatchObject({ status: 'completed', attempts: 2 });
    } finally {
      await live.stop();
    }
    const transcript = await getTranscript(stack, user, fileId);
    expect(words(transcript).length).toBeGreaterThan(0);

    // A was only paused, not dead: it wakes up, finishes the same work, and its result is refused.
    const late = await processJob(ctx, pipelineDeps(ctx.config), dead!, settings, new AbortController().signal);
    expect(late).toBe('lost');
    await stack.settle();
    expect(await getTranscript(stack, user, fileId)).toEqual(transcript);
    expect(await emitted(stack, 'transcript.completed', fileId)).toHaveLength(1);
    const history = (await emitted(stack, 'transcript.status_changed', fileId)).map((e) => [
      e.data.status,
      e.data.attempt,
    ]);
    expect(history).toEqual([
      ['pending', 0],
      ['processing', 1],
      ['processing', 2],
      ['completed', 2],
    ]);
    const rows = await stack.database.query<{ n: number }>(
      'select count(*)::int as n from transcription.transcripts where file_id = $1',
      [fileId],
    );
    expect(rows[0]!.n).toBe(1);
  }, 300_000);

  test('a job whose workers keep dying fails after the last attempt instead of looping', async () => {
    const fileId = await upload(stack, user, shortSpeech(), 'short.wav');
    const settings = queueSettings(ctx.config);
    expect(await claimNext(ctx, 'worker-1', settings)).toMatchObject({ fileId, attempts: 1 });
    await expireLease(fileId);
    expect(await claimNext(ctx, 'worker-2', settings)).toMatchObject({ fileId, attempts: 2 });
    await expireLease(fileId);
    // The last attempt's lease ran out too: the sweep fails the job rather than handing it out again.
    expect(await claimNext(ctx, 'worker-3', settings)).toBeNull();
    const [status] = (
      await stack.as(user, { method: 'GET', url: `/api/transcripts/status?fileIds=${fileId}` })
    ).json() as { reason: string; attempts: number }[];
    expect(status).toMatchObject({
      status: 'failed',
      attempts: 2,
      reason: 'The transcription worker stopped responding on every attempt',
    });
    // A retry from the API puts it back in the queue with a fresh count.
    const again = await stack.as(user, { method: 'POST', url: '/api/transcripts/transcribe', payload: { fileId } });
    expect(again.statusCode).toBe(202);
    expect(await claimNext(ctx, 'worker-4', settings)).toMatchObject({ fileId, attempts: 1 });
    // ...and while it runs, asking again is a conflict, not a second job.
    expect(
      (await stack.as(user, { method: 'POST', url: '/api/transcripts/transcribe', payload: { fileId } })).statusCode,
    ).toBe(409);
  }, 120_000);

  test('what a killed job left in its temporary directory is removed when a worker starts; a running job keeps its own', async () => {
    const settings = queueSettings(ctx.config);
    const root = workRootOf(ctx.config);
    const crashedId = await upload(stack, user, shortSpeech(), 'crashed.wav');
    const crashed = (await claimNext(ctx, 'worker-killed', settings))!;
    expect(crashed.fileId).toBe(crashedId);
    const runningId = await upload(stack, user, shortSpeech(), 'running.wav');
    const running = (await claimNext(ctx, 'worker-elsewhere', settings))!;
    expect(running.fileId).toBe(runningId);

    // The killed worker left its input behind and its lease ran out; the other one is at work.
    const left = jobDir(root, crashed);
    mkdirSync(left, { recursive: true });
    writeFileSync(join(left, 'input'), Buffer.alloc(4 * 1024 * 1024));
    await expireLease(crashedId);
    const inUse = jobDir(root, running);
    mkdirSync(inUse, { recursive: true });
    // A directory of no job at all (a job deleted since) goes too.
    const stray = join(root, 'stray');
    mkdirSync(stray);

    const next = createWorker(ctx, { id: 'worker-next' });
    await next.start();
    await next.stop();
    expect(existsSync(left)).toBe(false);
    expect(existsSync(stray)).toBe(false);
    expect(existsSync(inUse)).toBe(true);
  }, 120_000);
});

describe('a missing engine or tool fails the job with the reason', () => {
  const cases: [string, Record<string, string>, string][] = [
    [
      'pocketsphinx binary',
      { POCKETSPHINX_PATH: '/nonexistent/pocketsphinx_continuous' },
      'PocketSphinx is not installed on this server (/nonexistent/pocketsphinx_continuous not found)',
    ],
    [
      'pocketsphinx model',
      { POCKETSPHINX_HMM: '/nonexistent/model' },
      'The PocketSphinx acoustic model was not found at /nonexistent/model',
    ],
    ['ffmpeg', { FFMPEG_PATH: '/nonexistent/ffmpeg' }, 'ffmpeg is not installed on this server'],
    ['ffprobe', { FFPROBE_PATH: '/nonexistent/ffprobe' }, 'ffmpeg is not installed on this server'],
    [
      'openai key',
      { TRANSCRIPTION_ENGINE: 'openai' },
      'OpenAI-compatible transcription is not configured on this server (OPENAI_API_KEY is not set)',
    ],
  ];
  const audio = shortSpeech();

  test.each(cases)(
    '%s',
    async (_name, env, reason) => {
      const stack = await createTestStack([fileService, transcriptionService], {
        TRANSCRIPTION_POLL_MS: '100',
        TRANSCRIPTION_RETRY_BASE_MS: '10',
        ...env,
      });
      // No tenant service in this stack: nothing here is metered.
      serveUnmeteredCredits(stack.database);
      try {
        const user = await stack.tokenFor('USER', ACME);
        const fileId = await upload(stack, user, audio, 'short.wav');
        const status = await waitForStatus(stack, user, fileId);
        // Not retried: a missing program will not appear by waiting.
        expect(status).toMatchObject({ status: 'failed', reason, attempts: 1 });
        const transcript = await getTranscript(stack, user, fileId);
        expect(transcript).toMatchObject({
          status: 'failed',
          reason,
          metadata: { speakerSegments: [], peaksUrl: null },
        });
        expect((await stack.as(user, { method: 'GET', url: `/api/files/${fileId}` })).json()).toMatchObject({
          transcriptionStatus: 'failed',
          transcriptionError: reason,
        });
        expect(await emitted(stack, 'transcript.completed', fileId)).toEqual([]);
      } finally {
        await stack.close();
      }
    },
    120_000,
  );
});
