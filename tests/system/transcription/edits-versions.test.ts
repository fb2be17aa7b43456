import { randomUUID } from 'node:crypto';
import type { ReplaceAnswer, TranscriptDto, TranscriptPatch } from '@earshot/contracts';
import type { ServiceContext } from '@earshot/kit';
import { createTestStack, serveUnmeteredCredits, type TestStack } from '@earshot/kit/testing';
import { fileService } from '@earshot/file-service';
import { transcriptionService, type TranscriptionConfig } from '@earshot/transcription-service';
import { saveResult } from '../../../services/transcription/src/repositories/transcripts';
import { getTranscript, makeTones, spoken, twoSpeakerResult, upload } from './helpers';

const ACME = randomUUID();

const callResult = () =>
  twoSpeakerResult(
    [
      { speakerId: 'speaker_0', words: spoken('good morning this is dana from support', 0) },
      { speakerId: 'speaker_1', words: spoken('hello our invoices arrive twice', 4) },
    ],
    10,
  );

/** The edit version a 409 names, as the error body carries it. */
interface Conflict {
  code: string;
  message: string;
  details: { reason: string; baseVersion: number; currentVersion: number };
}

describe('transcript edits carry the version they were made on', () => {
  let stack: TestStack;
  let ctx: ServiceContext<TranscriptionConfig>;
  let token: string;
  const audio = makeTones([{ start: 0.2, length: 0.5 }], 1);

  beforeAll(async () => {
    stack = await createTestStack([fileService, transcriptionService], { TRANSCRIPTION_WORKER: 'false' });
    serveUnmeteredCredits(stack.database);
    token = await stack.tokenFor('USER', ACME, randomUUID());
    ctx = stack.running.contexts.get('transcription') as ServiceContext<TranscriptionConfig>;
  }, 120_000);
  afterAll(async () => stack.close());

  async function completedCall(): Promise<string> {
    const fileId = await upload(stack, token, audio, 'call.wav');
    await ctx.transact(async (tx) => {
      await saveResult(tx, fileId, callResult());
    });
    return fileId;
  }

  const call = (method: 'PUT' | 'POST', url: string, payload: object, headers: Record<string, string> = {}) =>
    stack.as(token, { method, url: `/api${url}`, headers, payload: payload as Record<string, unknown> });
  const transcript = (fileId: string): Promise<TranscriptDto> => getTranscript(stack, token, fileId);
  const firstSegment = async (fileId: string) => (await transcript(fileId)).metadata.speakerSegments[0]!;

  test('the transcript names its version; every edit counts one and names the new one', async () => {
    const fileId = await completedCall();
    const segment = await firstSegment(fileId);
    expect((await transcript(fileId)).version).toBe(0);

    const edited = await call(
      'PUT',
      `/transcripts/${fileId}/segments/${segment._id}`,
      { text: 'good evening' },
      {
        'if-match': '"0"',
      },
    );
    expect(edited.statusCode).toBe(200);
    expect(edited.headers.etag).toBe('"1"');
    expect(edited.json<TranscriptPatch>()).toMatchObject({ changed: true, version: 1 });

    const renamed = await call('PUT', `/transcripts/${fileId}/speakers/speaker_0`, { name: 'Dana', baseVersion: 1 });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.headers.etag).toBe('"2"');
    expect((await transcript(fileId)).version).toBe(2);
  });

  test('N edits on one base version at once: exactly one is applied, the others are 409 with the current version', async () => {
    const fileId = await completedCall();
    const segment = await firstSegment(fileId);
    const texts = ['first text', 'second text', 'third text', 'fourth text', 'fifth text'];
    const answers = await Promise.all(
      texts.map((text) => call('PUT', `/transcripts/${fileId}/segments/${segment._id}`, { text, baseVersion: 0 })),
    );
    const won = answers.filter((a) => a.statusCode === 200);
    const refused = answers.filter((a) => a.statusCode === 409);
    expect(won).toHaveLength(1);
    expect(refused).toHaveLength(texts.length - 1);
    for (const answer of refused)
      expect(answer.json<Conflict>()).toMatchObject({
        code: 'CONFLICT',
        details: { reason: 'stale_version', baseVersion: 0, currentVersion: 1 },
      });
    // The transcript holds the one applied edit's text, not a silent last write.
    const winner = texts[answers.findIndex((a) => a.statusCode === 200)]!;
    const now = await transcript(fileId);
    expect(now.metadata.speakerSegments.find((s) => s._id === segment._id)?.text).toBe(winner);
    expect(now.version).toBe(1);
  });

  test('a re-transcription counts as a change: an editor holding the words it replaced gets 409 with the new version', async () => {
    const fileId = await completedCall();
    const held = await transcript(fileId);
    expect(held.version).toBe(0);
    // The recording transcribed again: every word replaced, as a re-run's completion stores them.
    await ctx.transact(async (tx) => {
      await saveResult(tx, fileId, callResult());
    });
    const now = await transcript(fileId);
    expect(now.version).toBe(1);
    const segment = held.metadata.speakerSegments[0]!;
    for (const [payload, headers] of [
      [{ text: 'typed on the old words' }, { 'if-match': `"${held.version}"` }],
      [{ text: 'typed on the old words', baseVersion: held.version }, {}],
    ] as const) {
      const refused = await call('PUT', `/transcripts/${fileId}/segments/${segment._id}`, payload, headers);
      expect(refused.statusCode).toBe(409);
      expect(refused.json<Conflict>()).toMatchObject({
        details: { reason: 'stale_version', baseVersion: 0, currentVersion: 1 },
      });
    }
    expect(JSON.stringify((await transcript(fileId)).metadata)).not.toContain('typed on the old words');
  });

  test('a stale If-Match and a stale baseVersion are refused on every edit route; a refused edit changes nothing', async () => {
    const fileId = await completedCall();
    const t = await transcript(fileId);
    const segment = t.metadata.speakerSegments[0]!;
    const word = segment.words[0]!;
    const first = await call('PUT', `/transcripts/${fileId}/segments/${segment._id}`, { speakerId: 'speaker_1' });
    expect(first.statusCode).toBe(200);
    const before = await transcript(fileId);
    expect(before.version).toBe(1);

    const stale: [string, 'PUT' | 'POST', string, object][] = [
      ['segment text', 'PUT', `/transcripts/${fileId}/segments/${segment._id}`, { text: 'stale words' }],
      ['replace', 'POST', `/transcripts/${fileId}/replace`, { find: 'morning', replace: 'night' }],
      ['speaker rename', 'PUT', `/transcripts/${fileId}/speakers/speaker_0`, { name: 'Stale' }],
      ['speaker merge', 'POST', `/transcripts/${fileId}/speakers/merge`, { from: 'speaker_0', into: 'speaker_1' }],
      [
        'word',
        'PUT',
        `/transcripts/${t._id}/metadata/words/${word._id}`,
        { text: 'stale', speakerSegmentId: segment._id },
      ],
    ];
    for (const [name, method, url, body] of stale) {
      for (const res of [
        await call(method, url, body, { 'if-match': '"0"' }),
        await call(method, url, { ...body, baseVersion: 0 }),
      ]) {
        expect([name, res.statusCode]).toEqual([name, 409]);
        expect(res.json<Conflict>()).toMatchObject({
          code: 'CONFLICT',
          details: { reason: 'stale_version', baseVersion: 0, currentVersion: 1 },
        });
      }
    }
    const undo = await call(
      'POST',
      `/transcripts/${fileId}/edits/${first.json<TranscriptPatch>().editId}/undo`,
      {},
      {
        'if-match': 'W/"0"',
      },
    );
    expect(undo.statusCode).toBe(409);
    expect(await transcript(fileId)).toEqual(before);

    // A header and a body naming two versions is a mistake, not a choice between them.
    const both = await call(
      'PUT',
      `/transcripts/${fileId}/segments/${segment._id}`,
      { text: 'x', baseVersion: 1 },
      {
        'if-match': '"0"',
      },
    );
    expect(both.statusCode).toBe(400);
    const garbled = await call(
      'PUT',
      `/transcripts/${fileId}/segments/${segment._id}`,
      { text: 'x' },
      {
        'if-match': 'yesterday',
      },
    );
    expect(garbled.statusCode).toBe(400);
  });

  test('without a version an edit applies to the transcript as it is, as before', async () => {
    const fileId = await completedCall();
    const segment = await firstSegment(fileId);
    for (const text of ['one edit', 'another edit']) {
      const res = await call('PUT', `/transcripts/${fileId}/segments/${segment._id}`, { text });
      expect(res.statusCode).toBe(200);
    }
    const star = await call(
      'PUT',
      `/transcripts/${fileId}/segments/${segment._id}`,
      { text: 'any version' },
      {
        'if-match': '*',
      },
    );
    expect(star.statusCode).toBe(200);
    const now = await transcript(fileId);
    expect(now.metadata.speakerSegments.find((s) => s._id === segment._id)?.text).toBe('any version');
    expect(now.version).toBe(3);
  });

  test('an edit that changes nothing says so: changed false, no edit, the version unchanged', async () => {
    const fileId = await completedCall();
    const replace = (baseVersion: number) =>
      call('POST', `/transcripts/${fileId}/replace`, { find: 'invoices', replace: 'bills', baseVersion });
    const done = await replace(0);
    expect(done.json<ReplaceAnswer>()).toMatchObject({ replaced: 1, changed: true, version: 1 });
    // The same replace again, on the version it left: the words are already replaced.
    const again = await replace(1);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ replaced: 0, editId: null, changed: false, version: 1 });
    expect(again.headers['x-edit-id']).toBeUndefined();

    const segment = await firstSegment(fileId);
    const same = await call('PUT', `/transcripts/${fileId}/segments/${segment._id}`, {
      text: segment.text,
      baseVersion: 1,
    });
    expect(same.json<TranscriptPatch>()).toMatchObject({ editId: null, changed: false, version: 1, segments: [] });
    expect((await transcript(fileId)).version).toBe(1);
  });
});
