import { randomUUID } from 'node:crypto';
import type { TranscriptPatch, TranscriptUndoStack } from '@earshot/contracts';
import { hashApiKey, type ServiceContext } from '@earshot/kit';
import { createTestStack, serveUnmeteredCredits, type TestStack } from '@earshot/kit/testing';
import { fileService } from '@earshot/file-service';
import { transcriptionService, type TranscriptionConfig } from '@earshot/transcription-service';
import { anonymiseEdits } from '../../../services/transcription/src/repositories/privacy';
import { saveResult } from '../../../services/transcription/src/repositories/transcripts';
import { getTranscript, makeTones, spoken, twoSpeakerResult, upload } from './helpers';

const ACME = randomUUID();
const OTHER = randomUUID();
const API_KEY = `esk_${'u'.repeat(32)}`;

/** Four turns: Agent, Customer, Agent, Customer. */
const callResult = () =>
  twoSpeakerResult(
    [
      {
        speakerId: 'speaker_0',
        words: [...spoken('good morning this is dana', 0), ...spoken('i will merge the accounts', 9)],
      },
      { speakerId: 'speaker_1', words: [...spoken('hello our invoices arrive twice', 4), ...spoken('thank you', 14)] },
    ],
    20,
  );

describe("a person's undo and redo stacks, read from the server", () => {
  let stack: TestStack;
  let ctx: ServiceContext<TranscriptionConfig>;
  let tokens: Record<'dana' | 'fox' | 'otherCompany', string>;
  const foxId = randomUUID();
  const audio = makeTones([{ start: 0.2, length: 0.5 }], 1);

  beforeAll(async () => {
    stack = await createTestStack([fileService, transcriptionService], { TRANSCRIPTION_WORKER: 'false' });
    serveUnmeteredCredits(stack.database);
    tokens = {
      dana: await stack.tokenFor('USER', ACME, randomUUID()),
      fox: await stack.tokenFor('CALLER', ACME, foxId),
      otherCompany: await stack.tokenFor('ADMIN', OTHER),
    };
    ctx = stack.running.contexts.get('transcription') as ServiceContext<TranscriptionConfig>;
    stack.tokens.apiKeys.serveLocally({
      owner: async (hash) => (hash === hashApiKey(API_KEY) ? { companyId: ACME } : null),
    });
  }, 120_000);
  afterAll(async () => stack.close());

  async function completedCall(): Promise<{ fileId: string; segmentIds: string[] }> {
    const fileId = await upload(stack, tokens.dana, audio, 'call.wav');
    await ctx.transact(async (tx) => {
      await saveResult(tx, fileId, callResult());
    });
    const t = await getTranscript(stack, tokens.dana, fileId);
    return { fileId, segmentIds: t.metadata.speakerSegments.map((s) => s._id) };
  }

  const call = (token: string | null, method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) =>
    stack.as(token, { method, url: `/api${url}`, ...(payload ? { payload: payload as Record<string, unknown> } : {}) });

  /** Retypes a turn as `token`: the edit's id. */
  async function retype(token: string, fileId: string, segmentId: string, text: string): Promise<string> {
    const answer = await call(token, 'PUT', `/transcripts/${fileId}/segments/${segmentId}`, { text });
    expect(answer.statusCode).toBe(200);
    return answer.json<TranscriptPatch>().editId!;
  }
  async function step(token: string, fileId: string, editId: string, direction: 'undo' | 'redo'): Promise<void> {
    expect((await call(token, 'POST', `/transcripts/${fileId}/edits/${editId}/${direction}`)).statusCode).toBe(200);
  }
  async function mine(token: string, fileId: string): Promise<TranscriptUndoStack> {
    const answer = await call(token, 'GET', `/transcripts/${fileId}/edits/mine`);
    expect(answer.statusCode).toBe(200);
    return answer.json<TranscriptUndoStack>();
  }

  test('each person gets only their own edits; an undo moves one to redo and a new edit clears redo', async () => {
    const { fileId, segmentIds } = await completedCall();
    const [s0, s1, s2] = segmentIds;
    const d1 = await retype(tokens.dana, fileId, s0!, 'good evening this is dana');
    const f1 = await retype(tokens.fox, fileId, s1!, 'hello our invoices arrive once');
    const renamed = await call(tokens.dana, 'PUT', `/transcripts/${fileId}/speakers/speaker_0`, { name: 'Dana' });
    const d2 = renamed.headers['x-edit-id'] as string;
    expect(await mine(tokens.dana, fileId)).toEqual({ undo: [d1, d2], redo: [] });
    expect(await mine(tokens.fox, fileId)).toEqual({ undo: [f1], redo: [] });

    await step(tokens.dana, fileId, d2, 'undo');
    expect(await mine(tokens.dana, fileId)).toEqual({ undo: [d1], redo: [d2] });
    await step(tokens.dana, fileId, d1, 'undo');
    // The last undone is the next to redo: last in the list.
    expect(await mine(tokens.dana, fileId)).toEqual({ undo: [], redo: [d2, d1] });
    await step(tokens.dana, fileId, d1, 'redo');
    expect(await mine(tokens.dana, fileId)).toEqual({ undo: [d1], redo: [d2] });
    // Fox's own edit does not touch Dana's stacks, nor Dana's undo Fox's.
    expect(await mine(tokens.fox, fileId)).toEqual({ undo: [f1], redo: [] });

    const d3 = await retype(tokens.dana, fileId, s2!, 'i will merge them');
    expect(await mine(tokens.dana, fileId)).toEqual({ undo: [d1, d3], redo: [] });
  });

  test('two edits of one turn are both on the stack: the older one can be undone once the newer is', async () => {
    const { fileId, segmentIds } = await completedCall();
    const first = await retype(tokens.dana, fileId, segmentIds[3]!, 'thank you kindly');
    const second = await retype(tokens.dana, fileId, segmentIds[3]!, 'thanks a lot');
    expect(await mine(tokens.dana, fileId)).toEqual({ undo: [first, second], redo: [] });
    await step(tokens.dana, fileId, second, 'undo');
    await step(tokens.dana, fileId, first, 'undo');
    expect(await mine(tokens.dana, fileId)).toEqual({ undo: [], redo: [second, first] });
  });

  test('an edit someone else has changed since, or undone, drops out of its author’s stacks', async () => {
    const { fileId, segmentIds } = await completedCall();
    const [s0, s1, s2] = segmentIds;
    const d1 = await retype(tokens.dana, fileId, s0!, 'good evening this is dana');
    const d2 = await retype(tokens.dana, fileId, s1!, 'hello our invoices arrive once');
    const d3 = await retype(tokens.dana, fileId, s2!, 'i will merge them');
    await step(tokens.dana, fileId, d3, 'undo');
    expect(await mine(tokens.dana, fileId)).toEqual({ undo: [d1, d2], redo: [d3] });

    // Fox retypes the turn Dana's first edit changed: undoing it would lose Fox's words.
    const f1 = await retype(tokens.fox, fileId, s0!, 'good night this is fox');
    expect(await mine(tokens.dana, fileId)).toEqual({ undo: [d2], redo: [d3] });
    // Fox undoes Dana's second edit (from the history): it is neither Dana's to undo nor to redo.
    await step(tokens.fox, fileId, d2, 'undo');
    // Fox retypes the turn Dana undid: redoing it would lose Fox's words.
    const f2 = await retype(tokens.fox, fileId, s2!, 'i will keep them');
    expect(await mine(tokens.dana, fileId)).toEqual({ undo: [], redo: [] });
    // Fox's redo stack forgot the undo when Fox made a new edit.
    expect(await mine(tokens.fox, fileId)).toEqual({ undo: [f1, f2], redo: [] });
    // The server refuses what dropped out, as the stacks said.
    expect((await call(tokens.dana, 'POST', `/transcripts/${fileId}/edits/${d1}/undo`)).statusCode).toBe(409);
    expect((await call(tokens.dana, 'POST', `/transcripts/${fileId}/edits/${d3}/redo`)).statusCode).toBe(409);
  });

  test('a person erased no longer shows as who undid an edit', async () => {
    const { fileId, segmentIds } = await completedCall();
    const d1 = await retype(tokens.dana, fileId, segmentIds[0]!, 'good evening this is dana');
    await step(tokens.fox, fileId, d1, 'undo');
    await ctx.transact(async (tx) => {
      await anonymiseEdits(tx, ACME, foxId);
    });
    const rows = await stack.database.query<{ undone: boolean; undone_by: string | null }>(
      'select undone, undone_by from transcription.edits where id = $1',
      [d1],
    );
    expect(rows).toEqual([{ undone: true, undone_by: null }]);
  });

  test('another company’s file is a 404; a service account is refused', async () => {
    const { fileId } = await completedCall();
    expect((await call(tokens.otherCompany, 'GET', `/transcripts/${fileId}/edits/mine`)).statusCode).toBe(404);
    expect((await call(tokens.dana, 'GET', `/transcripts/${randomUUID()}/edits/mine`)).statusCode).toBe(404);
    const service = await stack.as(null, {
      method: 'GET',
      url: `/api/transcripts/${fileId}/edits/mine`,
      headers: { 'x-api-key': API_KEY },
    });
    expect(service.statusCode).toBe(403);
  });
});
