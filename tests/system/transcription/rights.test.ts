import { randomUUID } from 'node:crypto';
import type { Role } from '@earshot/contracts';
import { serveCreditGateInProcess } from '@earshot/kit';
import { createTestStack, ScriptedCreditGate, type TestStack } from '@earshot/kit/testing';
import { fileService } from '@earshot/file-service';
import { transcriptionService } from '@earshot/transcription-service';
import { emitted, getTranscript, makeTones, upload } from './helpers';

const ACME = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';
const NOT_YOURS =
  'Only the person who uploaded this recording or an administrator can delete it or transcribe it again';

/**
 * Object rights inside a company: every member reads and corrects transcripts; only the uploader,
 * an ADMIN of the company or a HOST_ADMIN deletes a recording or runs its transcription again.
 * No worker runs here: the rights are about the request, not the transcription.
 */
describe('who may delete or re-run a recording', () => {
  let stack: TestStack;
  const uploaderId = randomUUID();
  let tokens: Record<'uploader' | 'otherUser' | 'caller' | 'admin' | 'host' | 'otherCompany', string>;
  const audio = makeTones([{ start: 0.2, length: 0.5 }], 1);
  const gate = new ScriptedCreditGate();
  afterEach(() => gate.reset());

  beforeAll(async () => {
    stack = await createTestStack([fileService, transcriptionService], { TRANSCRIPTION_WORKER: 'false' });
    // No tenant service in this stack: its gate lets everything start unless a test says otherwise.
    serveCreditGateInProcess(stack.database, gate);
    const token = (role: Role, company: string | null, userId?: string) => stack.tokenFor(role, company, userId);
    tokens = {
      uploader: await token('USER', ACME, uploaderId),
      otherUser: await token('USER', ACME),
      caller: await token('CALLER', ACME),
      admin: await token('ADMIN', ACME),
      host: await token('HOST_ADMIN', null),
      otherCompany: await token('ADMIN', OTHER),
    };
  }, 60_000);
  afterAll(async () => stack.close());

  const rerun = (token: string, fileId: string) =>
    stack.as(token, { method: 'POST', url: '/api/transcripts/transcribe', payload: { fileId } });
  const remove = (token: string, id: string) => stack.as(token, { method: 'DELETE', url: `/api/transcripts/${id}` });

  test.each([
    ['another USER of the company', 'otherUser', 403],
    ['a CALLER of the company', 'caller', 403],
    ['an ADMIN of another company', 'otherCompany', 404],
    ['the uploader', 'uploader', 202],
    ['an ADMIN of the company', 'admin', 202],
    ['a HOST_ADMIN', 'host', 202],
  ] as const)('re-run by %s (%s) → %s', async (_who, who, status) => {
    const fileId = await upload(stack, tokens.uploader, audio, 'tones.wav');
    const res = await rerun(tokens[who], fileId);
    expect(res.statusCode).toBe(status);
    if (status === 403) expect(res.json()).toEqual({ message: NOT_YOURS, code: 'FORBIDDEN' });
    // Refused: nothing was queued in the caller's name.
    const queued = (await emitted(stack, 'transcript.status_changed', fileId)).filter((e) => e.actor.type === 'user');
    expect(queued).toHaveLength(status === 202 ? 1 : 0);
  });

  test.each([
    ['another USER of the company', 'otherUser', 403],
    ['a CALLER of the company', 'caller', 403],
    ['an ADMIN of another company', 'otherCompany', 404],
    ['the uploader', 'uploader', 200],
    ['an ADMIN of the company', 'admin', 200],
    ['a HOST_ADMIN', 'host', 200],
  ] as const)('delete by %s (%s) → %s', async (_who, who, status) => {
    const fileId = await upload(stack, tokens.uploader, audio, 'tones.wav');
    const res = await remove(tokens[who], fileId);
    expect(res.statusCode).toBe(status);
    if (status === 403) expect(res.json()).toEqual({ message: NOT_YOURS, code: 'FORBIDDEN' });
    await stack.settle();
    const file = await stack.as(tokens.uploader, { method: 'GET', url: `/api/files/${fileId}` });
    expect(file.statusCode).toBe(status === 200 ? 404 : 200);
    expect(await emitted(stack, 'transcript.deleted', fileId)).toHaveLength(status === 200 ? 1 : 0);
  });

  test('a re-run is refused for credits before anything is queued, with the engine it would use named', async () => {
    const fileId = await upload(stack, tokens.uploader, audio, 'tones.wav');
    gate.reset();
    gate.refusal = 'CREDITS_EXHAUSTED';
    const res = await rerun(tokens.uploader, fileId);
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({
      message: 'Your company has no credits left: ask your administrator',
      code: 'CREDITS_EXHAUSTED',
    });
    expect(gate.asked).toEqual([
      expect.objectContaining({
        companyId: ACME,
        userId: uploaderId,
        feature: 'transcription',
        engine: expect.any(String),
      }),
    ]);
    const queued = (await emitted(stack, 'transcript.status_changed', fileId)).filter((e) => e.actor.type === 'user');
    expect(queued).toHaveLength(0);
    gate.refusal = null;
    expect((await rerun(tokens.uploader, fileId)).statusCode).toBe(202);
    // The queued event names the engine and model the credits were checked for.
    const { engine, modelId } = gate.asked.at(-1)!;
    const rerunQueued = (await emitted(stack, 'transcript.status_changed', fileId)).filter(
      (e) => e.actor.type === 'user',
    );
    expect(rerunQueued).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ status: 'pending', engine, modelId }) }),
    ]);
  });

  test('a CALLER who uploaded a recording may delete it', async () => {
    const callerId = randomUUID();
    const caller = await stack.tokenFor('CALLER', ACME, callerId);
    const fileId = await upload(stack, caller, audio, 'tones.wav');
    expect((await remove(tokens.otherUser, fileId)).statusCode).toBe(403);
    expect((await remove(caller, fileId)).statusCode).toBe(200);
  });

  test('every member may read the transcript of a recording they did not upload', async () => {
    const fileId = await upload(stack, tokens.uploader, audio, 'tones.wav');
    for (const who of ['otherUser', 'caller', 'admin', 'host'] as const) {
      expect((await getTranscript(stack, tokens[who], fileId)).fileId).toBe(fileId);
    }
    expect(
      (await stack.as(tokens.otherCompany, { method: 'GET', url: `/api/transcripts/file/${fileId}` })).statusCode,
    ).toBe(404);
  });
});
