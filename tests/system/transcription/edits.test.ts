import { randomUUID } from 'node:crypto';
import {
  eventDefinition,
  type Envelope,
  type KnownPerson,
  type Role,
  type TranscriptDto,
  type TranscriptEditsPage,
  type TranscriptPatch,
  type TranscriptSpeakers,
} from '@earshot/contracts';
import { buildEnvelope, hashApiKey, type ServiceContext } from '@earshot/kit';
import { createTestStack, serveUnmeteredCredits, type TestStack } from '@earshot/kit/testing';
import { chatService } from '@earshot/chat-service';
import { fileService } from '@earshot/file-service';
import { promptService } from '@earshot/prompt-service';
import { transcriptionService, type TranscriptionConfig } from '@earshot/transcription-service';
import { saveResult } from '../../../services/transcription/src/repositories/transcripts';
import { completionEvents } from '../../../services/transcription/src/services/queue';
import { emitted, getTranscript, makeTones, spoken, twoSpeakerResult, upload, words as wordsOf } from './helpers';
import { companyCreated, createConversation, streamReply, listen, type SseEvent } from '../chat/helpers';

const ACME = randomUUID();
const OTHER = randomUUID();
const SHOP = randomUUID();
const system = { type: 'system' as const, id: null };
const API_KEY = `esk_${'e'.repeat(32)}`;

/** A stereo call: Agent, Customer, Agent, Customer, four segments (pauses over 0.8 s between turns). */
const callResult = () =>
  twoSpeakerResult(
    [
      {
        speakerId: 'speaker_0',
        words: [
          ...spoken('good morning this is dana from support', 0),
          ...spoken('i will merge the duplicate billing accounts today', 9),
        ],
      },
      {
        speakerId: 'speaker_1',
        words: [...spoken('hello our invoices arrive twice every month', 4), ...spoken('thank you very much', 14)],
      },
    ],
    20,
  );

describe('transcript editing', () => {
  let stack: TestStack;
  let ctx: ServiceContext<TranscriptionConfig>;
  let base: string;
  const uploaderId = randomUUID();
  const shopperId = randomUUID();
  let tokens: Record<'user' | 'caller' | 'admin' | 'host' | 'otherCompany' | 'shopper' | 'shopper2', string>;
  const audio = makeTones([{ start: 0.2, length: 0.5 }], 1);

  const publish = async (...envelopes: Envelope[]) => {
    await stack.bus.publish(
      envelopes.map((envelope) => ({
        topic: eventDefinition(envelope.type).topic,
        key: envelope.companyId ?? 'platform',
        envelope,
      })),
    );
    await stack.settle();
  };

  beforeAll(async () => {
    stack = await createTestStack([fileService, transcriptionService, promptService, chatService], {
      TRANSCRIPTION_WORKER: 'false',
    });
    serveUnmeteredCredits(stack.database);
    base = await listen(stack);
    const token = (role: Role, company: string | null, userId?: string) => stack.tokenFor(role, company, userId);
    tokens = {
      user: await token('USER', ACME, uploaderId),
      caller: await token('CALLER', ACME),
      admin: await token('ADMIN', ACME),
      host: await token('HOST_ADMIN', null),
      otherCompany: await token('ADMIN', OTHER),
      shopper: await token('USER', SHOP, shopperId),
      shopper2: await token('USER', SHOP),
    };
    ctx = stack.running.contexts.get('transcription') as ServiceContext<TranscriptionConfig>;
    // Company ACME's API key (a service account), as the tenant service would answer for it.
    stack.tokens.apiKeys.serveLocally({
      owner: async (hash) => (hash === hashApiKey(API_KEY) ? { companyId: ACME } : null),
    });
    await publish(
      companyCreated(SHOP, 'b2c'),
      // The uploader as the auth service announces them: a member with a name.
      buildEnvelope({
        type: 'user.created',
        companyId: ACME,
        actor: system,
        data: {
          id: uploaderId,
          before: null,
          after: {
            email: 'dana@acme.test',
            firstName: 'Dana',
            lastName: 'Scully',
            role: 'USER',
            companyId: ACME,
            status: 'active',
          },
        },
      }),
    );
  }, 120_000);
  afterAll(async () => stack.close());

  /** A completed stereo call uploaded by `token`, written and announced as the worker does (no audio recognised). */
  async function completedCall(token = tokens.user, companyId = ACME): Promise<string> {
    const fileId = await upload(stack, token, audio, 'call.wav');
    const result = callResult();
    await ctx.transact(async (tx, emit) => {
      const { id, originalName } = await saveResult(tx, fileId, result);
      completionEvents(companyId, { id, fileId, fileName: originalName }, result).forEach(emit);
    });
    await stack.database.query(`update transcription.jobs set status = 'completed' where file_id = $1`, [fileId]);
    await stack.settle();
    return fileId;
  }

  const call = (
    token: string | null,
    method: 'GET' | 'PUT' | 'POST',
    url: string,
    payload?: unknown,
    headers: Record<string, string> = {},
  ) =>
    stack.as(token, {
      method,
      url: `/api${url}`,
      headers,
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
  const transcript = (fileId: string) => getTranscript(stack, tokens.user, fileId);
  const allWordIds = (t: TranscriptDto) =>
    wordsOf(t)
      .map((w) => w._id)
      .sort();

  /** What the built-in assistant cites for a question (chat's own copy of the text). */
  async function citedSpeakers(question: string): Promise<string[]> {
    const id = await createConversation(stack, tokens.user);
    const { events } = await streamReply(base, tokens.user, id, { message: question });
    const done = events.find((e: SseEvent) => e.event === 'done')?.data as
      { citations?: { speaker: string }[] } | undefined;
    return (done?.citations ?? []).map((c) => c.speaker);
  }

  test("renaming a speaker shows in the transcript, the events, chat citations and prompt's copy", async () => {
    const fileId = await completedCall();
    // After completion, the speakers by name for the file service's filter.
    expect((await emitted(stack, 'transcript.speakers_changed', fileId)).map((e) => e.data.speakers)).toEqual([
      [
        { speakerId: 'speaker_0', name: 'Agent' },
        { speakerId: 'speaker_1', name: 'Customer' },
      ],
    ]);
    expect(await citedSpeakers('duplicate billing accounts')).toEqual(['Agent']);

    const res = await call(tokens.caller, 'PUT', `/transcripts/${fileId}/speakers/speaker_0`, {
      name: '  Dana Scully ',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<TranscriptSpeakers>()).toEqual([
      { speakerId: 'speaker_0', name: 'Dana Scully', color: '#2563eb' },
      { speakerId: 'speaker_1', name: 'Customer', color: '#db2777' },
    ]);
    const t = await transcript(fileId);
    expect(t.metadata.speakers.map((s) => [s.id, s.label, s.color])).toEqual([
      ['speaker_0', 'Dana Scully', '#2563eb'],
      ['speaker_1', 'Customer', '#db2777'],
    ]);

    // Every segment of the renamed speaker told again with its name; the names list after.
    const changed = await emitted(stack, 'transcript.segments_changed', fileId);
    expect(changed).toHaveLength(1);
    expect(changed[0]!.data).toMatchObject({ fileId, kind: 'speaker_rename', part: 0, parts: 1, removed: [] });
    expect(
      (changed[0]!.data.segments as { speaker: string; speakerId: string }[]).map((s) => [s.speakerId, s.speaker]),
    ).toEqual([
      ['speaker_0', 'Dana Scully'],
      ['speaker_0', 'Dana Scully'],
    ]);
    expect((await emitted(stack, 'transcript.speakers_changed', fileId)).at(-1)!.data.speakers).toEqual([
      { speakerId: 'speaker_0', name: 'Dana Scully' },
      { speakerId: 'speaker_1', name: 'Customer' },
    ]);

    expect(await citedSpeakers('duplicate billing accounts')).toEqual(['Dana Scully']);
    const promptCopy = await stack.database.query<{ speaker: string }>(
      'select distinct speaker from prompt.transcript_segments where file_id = $1 order by 1',
      [fileId],
    );
    expect(promptCopy.map((r) => r.speaker)).toEqual(['Customer', 'Dana Scully']);

    // The rename's edit is named beside the speakers, for the viewer's undo stack.
    const [renameEdit] = (await call(tokens.user, 'GET', `/transcripts/${fileId}/edits`)).json<TranscriptEditsPage>()
      .items;
    expect(res.headers['x-edit-id']).toBe(renameEdit!._id);

    // Same name again: nothing recorded, and no edit named.
    const again = await call(tokens.user, 'PUT', `/transcripts/${fileId}/speakers/speaker_0`, { name: 'Dana Scully' });
    expect(again.statusCode).toBe(200);
    expect(again.headers['x-edit-id']).toBeUndefined();
    expect(
      (await call(tokens.user, 'GET', `/transcripts/${fileId}/edits`)).json<TranscriptEditsPage>().items,
    ).toHaveLength(1);
  });

  test('a name is validated: empty, too long, control characters → 400 naming body.name; an unknown speaker 404', async () => {
    const fileId = await completedCall();
    for (const name of ['   ', 'x'.repeat(81), 'a\tb']) {
      const res = await call(tokens.user, 'PUT', `/transcripts/${fileId}/speakers/speaker_0`, { name });
      expect(res.statusCode).toBe(400);
      expect(res.json<{ details: { field: string }[] }>().details[0]!.field).toBe('body.name');
    }
    expect(
      (await call(tokens.user, 'PUT', `/transcripts/${fileId}/speakers/speaker_7`, { name: 'X' })).statusCode,
    ).toBe(404);
  });

  test('merging speakers and reassigning words keep every word exactly once', async () => {
    const fileId = await completedCall();
    const before = await transcript(fileId);
    const same = await call(tokens.user, 'POST', `/transcripts/${fileId}/speakers/merge`, {
      from: 'speaker_1',
      into: 'speaker_1',
    });
    expect(same.statusCode).toBe(400);
    expect(same.json()).toMatchObject({ details: { field: 'body.into' } });

    // Three words of the agent's second turn go to the customer: the segment splits in three.
    const turn = before.metadata.speakerSegments[2]!;
    const run = turn.words.slice(2, 5).map((w) => w._id);
    const moved = await call(tokens.user, 'PUT', `/transcripts/${fileId}/segments/${turn._id}`, {
      speakerId: 'speaker_1',
      wordIds: run,
    });
    expect(moved.statusCode).toBe(200);
    const patch = moved.json<TranscriptPatch>();
    expect(patch.removed).toEqual([]);
    expect(patch.segments.map((s) => [s.speakerId, s.text])).toEqual([
      ['speaker_0', 'i will'],
      ['speaker_1', 'merge the duplicate'],
      ['speaker_0', 'billing accounts today'],
    ]);
    const afterMove = await transcript(fileId);
    expect(allWordIds(afterMove)).toEqual(allWordIds(before));
    expect(afterMove.metadata.speakerSegments).toHaveLength(6);

    const gap = await call(tokens.user, 'PUT', `/transcripts/${fileId}/segments/${turn._id}`, {
      speakerId: 'speaker_1',
      wordIds: [turn.words[0]!._id, turn.words[5]!._id],
    });
    expect(gap.statusCode).toBe(404); // the run's words left this segment

    const merged = await call(tokens.user, 'POST', `/transcripts/${fileId}/speakers/merge`, {
      from: 'speaker_1',
      into: 'speaker_0',
    });
    expect(merged.statusCode).toBe(200);
    expect(merged.json<TranscriptPatch>().speakers).toEqual([
      { speakerId: 'speaker_0', name: 'Agent', color: '#2563eb' },
    ]);
    const afterMerge = await transcript(fileId);
    expect(afterMerge.metadata.speakers.map((s) => s.id)).toEqual(['speaker_0']);
    expect(afterMerge.metadata.speakerSegments.every((s) => s.speakerId === 'speaker_0')).toBe(true);
    expect(allWordIds(afterMerge)).toEqual(allWordIds(before));
  });

  test("a segment text edit keeps the untouched words' ids and times; split and merge", async () => {
    const fileId = await completedCall();
    const before = await transcript(fileId);
    const segment = before.metadata.speakerSegments[1]!;
    const res = await call(tokens.user, 'PUT', `/transcripts/${fileId}/segments/${segment._id}`, {
      text: 'hello our bills arrive twice each month',
    });
    expect(res.statusCode).toBe(200);
    const after = res.json<TranscriptPatch>().segments[0]!;
    expect(after._id).toBe(segment._id);
    for (const index of [0, 1, 3, 4, 6]) expect(after.words[index]).toEqual(segment.words[index]);
    expect(after.words[2]).toMatchObject({ text: 'bills', start: segment.words[1]!.end, end: segment.words[3]!.start });
    expect(after.words[2]!._id).not.toBe(segment.words[2]!._id);
    expect((await transcript(fileId)).metadata.speakerSegments[1]!.text).toBe(
      'hello our bills arrive twice each month',
    );

    const split = await call(tokens.user, 'POST', `/transcripts/${fileId}/segments/${segment._id}/split`, {
      wordId: segment.words[3]!._id,
    });
    expect(split.statusCode).toBe(200);
    expect(split.json<TranscriptPatch>().segments.map((s) => s.text)).toEqual([
      'hello our bills',
      'arrive twice each month',
    ]);
    const first = await call(tokens.user, 'POST', `/transcripts/${fileId}/segments/${segment._id}/split`, {
      wordId: segment.words[0]!._id,
    });
    expect(first.statusCode).toBe(400);
    expect(first.json()).toMatchObject({ details: { field: 'body.wordId' } });

    const merged = await call(tokens.user, 'POST', `/transcripts/${fileId}/segments/${segment._id}/merge`, {});
    expect(merged.statusCode).toBe(200);
    expect(merged.json<TranscriptPatch>()).toMatchObject({ removed: [split.json<TranscriptPatch>().segments[1]!._id] });
    // The next segment in time is the agent's: no merge across speakers.
    const across = await call(tokens.user, 'POST', `/transcripts/${fileId}/segments/${segment._id}/merge`, {});
    expect(across.statusCode).toBe(409);
    expect(across.json()).toMatchObject({ code: 'CONFLICT' });
    expect(across.json<{ message: string }>().message).toContain("Agent's");
  });

  test('find and replace: counts with match case and whole word, replace-one and replace-all', async () => {
    const fileId = await completedCall();
    const replace = (body: Record<string, unknown>) =>
      call(tokens.user, 'POST', `/transcripts/${fileId}/replace`, { replace: 'X', ...body });
    // Nothing matched: the answer says nothing changed, and the version stays the transcript's.
    expect((await replace({ find: 'zeppelin' })).json()).toEqual({
      replaced: 0,
      editId: null,
      changed: false,
      version: 0,
    });
    const one = await replace({
      find: 'TH',
      segmentId: (await transcript(fileId)).metadata.speakerSegments[0]!._id,
      occurrence: 0,
    });
    expect(one.json()).toMatchObject({ replaced: 1 });
    expect((await transcript(fileId)).metadata.speakerSegments[0]!.text).toBe('good morning Xis is dana from support');
    expect((await replace({ find: 'th', matchCase: true, wholeWord: true })).json()).toEqual({
      replaced: 0,
      editId: null,
      changed: false,
      version: 1,
    });
    const all = await replace({ find: 'the', wholeWord: true, replace: 'our' });
    expect(all.json()).toMatchObject({ replaced: 1 });
    const many = (await replace({ find: 'o', replace: '0' })).json<{ replaced: number; editId: string }>();
    expect(many.replaced).toBe(
      wordsOf(await transcript(fileId)).reduce((n, w) => n + (w.text.match(/0/g)?.length ?? 0), 0),
    );
    expect(many.editId).toEqual(expect.any(String));
    const bad = await replace({ find: '' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ details: { field: string }[] }>().details[0]!.field).toBe('body.find');
  });

  test('undo and redo by inverse patch; 409 once what the edit changed was changed again', async () => {
    const fileId = await completedCall();
    const original = await transcript(fileId);
    const segment = original.metadata.speakerSegments[3]!;
    const edit = await call(tokens.user, 'PUT', `/transcripts/${fileId}/segments/${segment._id}`, {
      text: 'thanks a lot',
    });
    const { editId } = edit.json<TranscriptPatch>();
    const undo = await call(tokens.caller, 'POST', `/transcripts/${fileId}/edits/${editId}/undo`);
    expect(undo.statusCode).toBe(200);
    expect(undo.json<TranscriptPatch>().segments).toEqual([segment]);
    expect((await transcript(fileId)).metadata.speakerSegments).toEqual(original.metadata.speakerSegments);
    expect((await call(tokens.user, 'POST', `/transcripts/${fileId}/edits/${editId}/undo`)).statusCode).toBe(409);

    const redo = await call(tokens.user, 'POST', `/transcripts/${fileId}/edits/${editId}/redo`);
    expect(redo.statusCode).toBe(200);
    expect((await transcript(fileId)).metadata.speakerSegments[3]!.text).toBe('thanks a lot');

    // The redone segment is edited again: undoing the first edit would lose that.
    await call(tokens.user, 'PUT', `/transcripts/${fileId}/segments/${segment._id}`, { text: 'thanks a million' });
    const refused = await call(tokens.user, 'POST', `/transcripts/${fileId}/edits/${editId}/undo`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'CONFLICT' });

    // A rename is undone too, and the event says so.
    await call(tokens.user, 'PUT', `/transcripts/${fileId}/speakers/speaker_1`, { name: 'Mulder' });
    const history = (await call(tokens.user, 'GET', `/transcripts/${fileId}/edits`)).json<TranscriptEditsPage>();
    expect(history.items.map((i) => [i.kind, i.undone])).toEqual([
      ['speaker_rename', false],
      ['segment_text', false],
      ['redo', false],
      ['undo', false],
      ['segment_text', false],
    ]);
    expect(history.items[4]!.actor).toEqual({ userId: uploaderId, name: 'Dana Scully' });
    const undoRename = await call(tokens.user, 'POST', `/transcripts/${fileId}/edits/${history.items[0]!._id}/undo`);
    expect(undoRename.json<TranscriptPatch>().speakers.map((s) => s.name)).toEqual(['Agent', 'Customer']);
    expect((await emitted(stack, 'transcript.speakers_changed', fileId)).at(-1)!.data.speakers).toEqual([
      { speakerId: 'speaker_0', name: 'Agent' },
      { speakerId: 'speaker_1', name: 'Customer' },
    ]);
    // An undo is not itself undone; an unknown edit is a 404.
    expect(
      (await call(tokens.user, 'POST', `/transcripts/${fileId}/edits/${history.items[3]!._id}/undo`)).statusCode,
    ).toBe(409);
    expect((await call(tokens.user, 'POST', `/transcripts/${fileId}/edits/${randomUUID()}/undo`)).statusCode).toBe(404);
  });

  test('the word edit is recorded (history, undo) and keeps its answer and event', async () => {
    const fileId = await completedCall();
    const t = await transcript(fileId);
    const segment = t.metadata.speakerSegments[0]!;
    const res = await call(tokens.user, 'PUT', `/transcripts/${t._id}/metadata/words/${segment.words[1]!._id}`, {
      text: 'evening',
      speakerSegmentId: segment._id,
    });
    expect(res.json()).toEqual({ message: 'Word updated successfully' });
    expect((await emitted(stack, 'transcript.word_edited', fileId)).map((e) => e.data.segmentText)).toEqual([
      'good evening this is dana from support',
    ]);
    const [item] = (await call(tokens.user, 'GET', `/transcripts/${fileId}/edits`)).json<TranscriptEditsPage>().items;
    expect(item).toMatchObject({ kind: 'word', summary: 'Changed "morning" to "evening"', undone: false });
    expect(res.headers['x-edit-id']).toBe(item!._id);
    expect((await call(tokens.user, 'POST', `/transcripts/${fileId}/edits/${item!._id}/undo`)).statusCode).toBe(200);
    expect((await transcript(fileId)).metadata.speakerSegments[0]).toEqual(segment);
  });

  test('history pages with a keyset cursor, newest first', async () => {
    const fileId = await completedCall();
    for (let i = 0; i < 52; i++)
      await call(tokens.user, 'PUT', `/transcripts/${fileId}/speakers/speaker_1`, { name: `Name ${i}` });
    const first = (await call(tokens.user, 'GET', `/transcripts/${fileId}/edits`)).json<TranscriptEditsPage>();
    expect(first.items).toHaveLength(50);
    expect(first.items[0]!.summary).toBe('Renamed "Name 50" to "Name 51"');
    const second = (
      await call(tokens.user, 'GET', `/transcripts/${fileId}/edits?cursor=${first.nextCursor}`)
    ).json<TranscriptEditsPage>();
    expect(second.items.map((i) => i.summary)).toEqual([
      'Renamed "Name 0" to "Name 1"',
      'Renamed "Customer" to "Name 0"',
    ]);
    expect(second.nextCursor).toBeNull();
    const bad = await call(tokens.user, 'GET', `/transcripts/${fileId}/edits?cursor=nonsense`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ details: { field: 'query.cursor' } });
  });

  test('another company, another b2c member: 404 on every edit route; a service account 403', async () => {
    const fileId = await completedCall();
    const t = await transcript(fileId);
    const segmentId = t.metadata.speakerSegments[0]!._id;
    const wordId = t.metadata.speakerSegments[0]!.words[1]!._id;
    const routes: ['GET' | 'PUT' | 'POST', string, unknown?][] = [
      ['PUT', `/transcripts/${fileId}/speakers/speaker_0`, { name: 'X' }],
      ['POST', `/transcripts/${fileId}/speakers/merge`, { from: 'speaker_1', into: 'speaker_0' }],
      ['PUT', `/transcripts/${fileId}/segments/${segmentId}`, { text: 'x' }],
      ['POST', `/transcripts/${fileId}/segments/${segmentId}/split`, { wordId }],
      ['POST', `/transcripts/${fileId}/segments/${segmentId}/merge`, {}],
      ['POST', `/transcripts/${fileId}/replace`, { find: 'good', replace: 'bad' }],
      ['GET', `/transcripts/${fileId}/edits`],
      ['POST', `/transcripts/${fileId}/edits/${randomUUID()}/undo`],
      ['POST', `/transcripts/${fileId}/edits/${randomUUID()}/redo`],
      ['GET', `/transcripts/people?fileId=${fileId}`],
    ];
    for (const [method, url, body] of routes) {
      expect([method, url, (await call(tokens.otherCompany, method, url, body)).statusCode]).toEqual([
        method,
        url,
        404,
      ]);
      expect([method, url, (await call(null, method, url, body, { 'x-api-key': API_KEY })).statusCode]).toEqual([
        method,
        url,
        403,
      ]);
    }
    expect(await transcript(fileId)).toEqual(t);

    const mine = await completedCall(tokens.shopper, SHOP);
    expect(
      (await call(tokens.shopper2, 'PUT', `/transcripts/${mine}/speakers/speaker_0`, { name: 'X' })).statusCode,
    ).toBe(404);
    expect(
      (await call(tokens.shopper, 'PUT', `/transcripts/${mine}/speakers/speaker_0`, { name: 'Me' })).statusCode,
    ).toBe(200);
    // A platform administrator may correct any company's transcript.
    expect(
      (await call(tokens.host, 'PUT', `/transcripts/${fileId}/speakers/speaker_0`, { name: 'Host fix' })).statusCode,
    ).toBe(200);
  });

  test('the language declared at upload is the transcript\'s ("auto" is unknown); the model is null for the server\'s engine', async () => {
    const uploaded = (language: string | undefined) => {
      const id = randomUUID();
      return {
        id,
        envelope: buildEnvelope({
          type: 'file.uploaded',
          companyId: ACME,
          actor: system,
          data: {
            id,
            storageKey: `${ACME}/${id}.wav`,
            originalName: 'x.wav',
            mimeType: 'audio/wav',
            size: 10,
            clientId: null,
            uploadedBy: uploaderId,
            ...(language ? { language } : {}),
          },
        }),
      };
    };
    const french = uploaded('fr');
    const automatic = uploaded('auto');
    await publish(french.envelope, automatic.envelope);
    expect(await transcript(french.id)).toMatchObject({ language: 'fr', model: null });
    expect((await transcript(automatic.id)).language).toBeNull();
  });

  test("known people: members, clients and speaker names; a stereo call's uploader first", async () => {
    const fileId = await completedCall();
    await publish(
      buildEnvelope({
        type: 'client.created',
        companyId: ACME,
        actor: system,
        data: {
          id: randomUUID(),
          before: null,
          after: {
            name: 'Globex Ltd',
            organisation: null,
            email: null,
            phone: null,
            externalId: null,
            notes: null,
            ownerId: null,
          },
        },
      }),
    );
    await call(tokens.user, 'PUT', `/transcripts/${fileId}/speakers/speaker_1`, { name: 'Fox Mulder' });
    const people = (await call(tokens.caller, 'GET', '/transcripts/people')).json<KnownPerson[]>();
    expect(people).toEqual(
      expect.arrayContaining([
        { name: 'Dana Scully', kind: 'member' },
        { name: 'Globex Ltd', kind: 'contact' },
        { name: 'Fox Mulder', kind: 'speaker' },
      ]),
    );
    // The labels the pipeline gives are nobody's name.
    expect(people.map((p) => p.name)).not.toContain('Agent');
    const forCall = (await call(tokens.caller, 'GET', `/transcripts/people?fileId=${fileId}`)).json<KnownPerson[]>();
    expect(forCall[0]).toEqual({ name: 'Dana Scully', kind: 'member', uploader: true });
    expect(forCall.filter((p) => p.name === 'Dana Scully')).toHaveLength(1);
    // Other companies' people are not offered.
    expect((await call(tokens.otherCompany, 'GET', '/transcripts/people')).json()).toEqual([]);
    // In a b2c workspace the other consumers are strangers: the caller is the only member offered.
    const member = (id: string, firstName: string) =>
      buildEnvelope({
        type: 'user.created',
        companyId: SHOP,
        actor: system,
        data: {
          id,
          before: null,
          after: {
            email: `${firstName}@shop.test`,
            firstName,
            lastName: 'Shopper',
            role: 'USER',
            companyId: SHOP,
            status: 'active',
          },
        },
      });
    await publish(member(shopperId, 'Sam'), member(randomUUID(), 'Stranger'));
    expect(
      (await call(tokens.shopper, 'GET', '/transcripts/people'))
        .json<KnownPerson[]>()
        .filter((p) => p.kind === 'member'),
    ).toEqual([{ name: 'Sam Shopper', kind: 'member' }]);
  });
});
