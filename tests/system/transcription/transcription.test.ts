import { UPLOAD_URL_PREFIX, type TranscriptDto } from '@earshot/contracts';
import { buildEnvelope } from '@earshot/kit';
import { createTestStack, serveUnmeteredCredits, type TestStack } from '@earshot/kit/testing';
import { fileService } from '@earshot/file-service';
import { transcriptionService } from '@earshot/transcription-service';
import { emitted, getTranscript, makeCall, makeMono, upload, waitForStatus, words, type CallFixture } from './helpers';

const ACME = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';

let stack: TestStack;
let user: string;
let admin: string;
let caller: string;
let stranger: string;
let host: string;
let call: CallFixture;
let callId: string;
let callTranscript: TranscriptDto;
let monoId: string;
let mono: { audio: Buffer; duration: number };

beforeAll(async () => {
  // Short pieces (6 s) so that the mono recording is cut at its silences and decoded in parallel.
  stack = await createTestStack([fileService, transcriptionService], {
    TRANSCRIPTION_CHUNK_SECONDS: '6',
    TRANSCRIPTION_POLL_MS: '100',
  });
  // No tenant service in this stack: nothing here is metered.
  serveUnmeteredCredits(stack.database);
  user = await stack.tokenFor('USER', ACME);
  admin = await stack.tokenFor('ADMIN', ACME);
  caller = await stack.tokenFor('CALLER', ACME);
  stranger = await stack.tokenFor('ADMIN', OTHER);
  host = await stack.tokenFor('HOST_ADMIN', null);
  call = makeCall();
  mono = makeMono();
  callId = await upload(stack, user, call.audio, 'call.wav');
  monoId = await upload(stack, user, mono.audio, 'memo.flac');
  expect((await waitForStatus(stack, user, callId)).status).toBe('completed');
  expect((await waitForStatus(stack, user, monoId)).status).toBe('completed');
  callTranscript = await getTranscript(stack, user, callId);
}, 300_000);
afterAll(async () => stack.close());

const spoken = (t: TranscriptDto, speakerId?: string) => words(t, speakerId).map((w) => w.text.toLowerCase());

test('an uploaded stereo call becomes a transcript with one speaker per channel, interleaved by time', () => {
  const t = callTranscript;
  expect(t.status).toBe('completed');
  expect(t.fileId).toBe(callId);
  expect(t.file.originalName).toBe('call.wav');
  expect(t.audioPath).toBe(t.file.url);
  expect(t.file.url).toBe(UPLOAD_URL_PREFIX + t.file.path);
  expect(t.engine).toBe('pocketsphinx');
  expect(t.metadata.duration).toBeCloseTo(call.duration, 1);
  expect(t.metadata.speakers).toEqual([
    { id: 'speaker_0', label: 'Agent', channel: 0, color: '#2563eb' },
    { id: 'speaker_1', label: 'Customer', channel: 1, color: '#db2777' },
  ]);
  // PocketSphinx says how sure it is of each word.
  expect(words(t).every((w) => w.confidence !== undefined && w.confidence >= 0 && w.confidence <= 1)).toBe(true);
  expect(new Set(t.metadata.speakerSegments.map((s) => s.speakerId))).toEqual(new Set(['speaker_0', 'speaker_1']));
  // Segments interleave by start time; each segment's text is its words.
  const starts = t.metadata.speakerSegments.map((s) => s.start);
  expect(starts).toEqual([...starts].sort((a, b) => a - b));
  for (const segment of t.metadata.speakerSegments) {
    expect(segment.text).toBe(segment.words.map((w) => w.text).join(' '));
    expect(segment.start).toBe(segment.words[0]!.start);
    expect(segment.end).toBe(segment.words[segment.words.length - 1]!.end);
  }
  // Every segment and word has its own string id.
  const ids = t.metadata.speakerSegments.flatMap((s) => [s._id, ...s.words.map((w) => w._id)]);
  expect(new Set(ids).size).toBe(ids.length);
  ids.forEach((id) => expect(typeof id).toBe('string'));
});

test('word times ascend without overlapping, stay inside the audio, and each side speaks when it did', () => {
  const t = callTranscript;
  const all = words(t).sort((a, b) => a.start - b.start);
  expect(all.length).toBeGreaterThan(6);
  let previousEnd = 0;
  for (const word of all) {
    expect(word.start).toBeGreaterThanOrEqual(previousEnd);
    expect(word.end).toBeGreaterThanOrEqual(word.start);
    expect(word.end).toBeLessThanOrEqual(call.duration + 0.01);
    previousEnd = word.end;
  }
  // The left channel (agent) spoke first, the right (customer) after: the times prove the mapping.
  for (const w of words(t, 'speaker_0')) expect(w.start).toBeLessThan(call.agent.end + 0.3);
  for (const w of words(t, 'speaker_1')) expect(w.start).toBeGreaterThan(call.customer.start - 0.3);
});

test('what was spoken is recognised on each channel', () => {
  const agent = spoken(callTranscript, 'speaker_0');
  const customer = spoken(callTranscript, 'speaker_1');
  // PocketSphinx gets espeak's numbers right; a few misses are allowed, inventions are not.
  expect(['three', 'four', 'five', 'six'].filter((w) => agent.includes(w)).length).toBeGreaterThanOrEqual(2);
  expect(['five', 'six', 'seven', 'eight'].filter((w) => customer.includes(w)).length).toBeGreaterThanOrEqual(2);
  expect(customer).not.toContain('three');
});

test('a mono recording gets one speaker, segments split at its pauses, pieces stitched in order', async () => {
  const t = await getTranscript(stack, user, monoId);
  expect(t.metadata.speakers).toEqual([{ id: 'speaker_0', label: 'Speaker 1', channel: null, color: '#2563eb' }]);
  expect(t.metadata.speakerSegments.every((s) => s.speakerId === 'speaker_0')).toBe(true);
  expect(t.metadata.speakerSegments.length).toBeGreaterThanOrEqual(2);
  expect(t.metadata.duration).toBeCloseTo(mono.duration, 1);
  const all = words(t);
  for (let i = 1; i < all.length; i++) expect(all[i]!.start).toBeGreaterThanOrEqual(all[i - 1]!.end);
  const text = all.map((w) => w.text);
  expect(['four', 'five', 'six', 'seven'].filter((w) => text.includes(w)).length).toBeGreaterThanOrEqual(2);
  // Both halves (cut apart at the pause) were decoded: words on both sides of the cut.
  expect(all.some((w) => w.start < 3)).toBe(true);
  expect(all.some((w) => w.start > mono.duration / 2)).toBe(true);
});

test('waveform peaks: normalised min/max pairs, about ten a second, served beside the transcript', async () => {
  expect(callTranscript.metadata.peaksUrl).toBe(`/api/transcripts/${callId}/peaks`);
  const res = await stack.as(user, { method: 'GET', url: callTranscript.metadata.peaksUrl! });
  expect(res.statusCode).toBe(200);
  const peaks = res.json() as { length: number; data: number[]; pointsPerSecond: number; duration: number };
  expect(peaks.data).toHaveLength(peaks.length * 2);
  expect(peaks.length).toBe(Math.ceil(call.duration * 10));
  for (let i = 0; i < peaks.data.length; i += 2) {
    expect(peaks.data[i]!).toBeLessThanOrEqual(peaks.data[i + 1]!);
    expect(peaks.data[i]!).toBeGreaterThanOrEqual(-1);
    expect(peaks.data[i + 1]!).toBeLessThanOrEqual(1);
  }
  // Silence before the agent speaks is flat; speech is not.
  expect(Math.max(...peaks.data.slice(0, 6).map(Math.abs))).toBeLessThan(0.05);
  expect(Math.max(...peaks.data.map(Math.abs))).toBeGreaterThan(0.2);
  expect((await stack.as(stranger, { method: 'GET', url: callTranscript.metadata.peaksUrl! })).statusCode).toBe(404);
});

test('status events drive the file list: pending → processing → completed, and the file service mirrors it', async () => {
  const statuses = (await emitted(stack, 'transcript.status_changed', callId)).map((e) => e.data.status);
  expect(statuses).toEqual(['pending', 'processing', 'completed']);
  const completed = await emitted(stack, 'transcript.completed', callId);
  expect(completed).toHaveLength(1);
  expect(completed[0]!.data).toMatchObject({
    id: callTranscript._id,
    fileId: callId,
    engine: 'pocketsphinx',
    speakers: 2,
    words: words(callTranscript).length,
  });
  const file = await stack.as(user, { method: 'GET', url: `/api/files/${callId}` });
  expect(file.json()).toMatchObject({ transcriptionStatus: 'completed', transcriptionError: null });
});

test("GET /transcripts/status lists the company's files, filters by id, and shows nothing of others", async () => {
  const all = (await stack.as(user, { method: 'GET', url: '/api/transcripts/status' })).json() as {
    fileId: string;
    status: string;
  }[];
  expect(all.map((s) => s.fileId).sort()).toEqual([callId, monoId].sort());
  expect(all.every((s) => s.status === 'completed')).toBe(true);
  const one = (await stack.as(user, { method: 'GET', url: `/api/transcripts/status?fileIds=${monoId}` })).json() as {
    fileId: string;
  }[];
  expect(one.map((s) => s.fileId)).toEqual([monoId]);
  expect((await stack.as(stranger, { method: 'GET', url: '/api/transcripts/status' })).json()).toEqual([]);
  expect(
    (await stack.as(stranger, { method: 'GET', url: `/api/transcripts/status?fileIds=${callId}` })).json(),
  ).toEqual([]);
  expect((await stack.as(user, { method: 'GET', url: '/api/transcripts/status?fileIds=nope' })).statusCode).toBe(400);
  expect((await stack.as(null, { method: 'GET', url: '/api/transcripts/status' })).statusCode).toBe(401);
});

test("another company's transcript is not found; a HOST_ADMIN sees any", async () => {
  expect((await stack.as(stranger, { method: 'GET', url: `/api/transcripts/file/${callId}` })).statusCode).toBe(404);
  expect(
    (await stack.as(stranger, { method: 'POST', url: '/api/transcripts/transcribe', payload: { fileId: callId } }))
      .statusCode,
  ).toBe(404);
  expect((await stack.as(stranger, { method: 'DELETE', url: `/api/transcripts/${callId}` })).statusCode).toBe(404);
  const word = callTranscript.metadata.speakerSegments[0]!.words[0]!;
  const edit = await stack.as(stranger, {
    method: 'PUT',
    url: `/api/transcripts/${callTranscript._id}/metadata/words/${word._id}`,
    payload: { text: 'stolen', speakerSegmentId: callTranscript.metadata.speakerSegments[0]!._id },
  });
  expect(edit.statusCode).toBe(404);
  expect((await stack.as(host, { method: 'GET', url: `/api/transcripts/file/${callId}` })).statusCode).toBe(200);
  expect(
    (await stack.as(user, { method: 'GET', url: '/api/transcripts/file/33333333-3333-4333-8333-333333333333' }))
      .statusCode,
  ).toBe(404);
});

describe('word edits', () => {
  const path = (t: TranscriptDto, wordId: string) => `/api/transcripts/${t._id}/metadata/words/${wordId}`;

  test('a word is corrected, its segment text follows, and the edit is audited with old and new text', async () => {
    const t = await getTranscript(stack, user, monoId);
    const segment = t.metadata.speakerSegments[0]!;
    const word = segment.words[0]!;
    const res = await stack.as(caller, {
      method: 'PUT',
      url: path(t, word._id),
      payload: { text: '  Seven ', speakerSegmentId: segment._id },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Word updated successfully' });
    const after = await getTranscript(stack, user, monoId);
    const changed = after.metadata.speakerSegments[0]!;
    // A corrected word keeps its id and times; the engine's confidence was about the old word.
    const { confidence: _heard, ...kept } = word;
    expect(changed.words[0]).toEqual({ ...kept, text: 'Seven' });
    expect(changed.text).toBe(['Seven', ...segment.words.slice(1).map((w) => w.text)].join(' '));
    // Nothing else moved.
    expect(after.metadata.speakerSegments.slice(1)).toEqual(t.metadata.speakerSegments.slice(1));
    const audit = (await emitted(stack, 'transcript.word_edited', monoId)).at(-1)!;
    expect(audit.data).toEqual({
      id: t._id,
      fileId: monoId,
      wordId: word._id,
      segmentId: segment._id,
      segmentText: changed.text,
      before: { text: word.text },
      after: { text: 'Seven' },
    });
    expect(audit.actor).toMatchObject({ type: 'user', role: 'CALLER' });
  });

  test('empty, blank or over-long text is refused with Word Failed; nothing changes', async () => {
    const t = await getTranscript(stack, user, monoId);
    const segment = t.metadata.speakerSegments[1]!;
    const word = segment.words[0]!;
    for (const text of ['', '   ', 'x'.repeat(101)]) {
      const res = await stack.as(user, {
        method: 'PUT',
        url: path(t, word._id),
        payload: { text, speakerSegmentId: segment._id },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ message: 'Word Failed', details: { field: 'body.text' } });
    }
    const missingField = await stack.as(user, { method: 'PUT', url: path(t, word._id), payload: { text: 'ok' } });
    expect(missingField.statusCode).toBe(400);
    expect(missingField.json().message).toMatch(/speakerSegmentId/);
    expect((await getTranscript(stack, user, monoId)).metadata.speakerSegments[1]).toEqual(segment);
  });

  test('unknown transcript, segment or word, or a word of another segment, is a 404', async () => {
    const t = await getTranscript(stack, user, monoId);
    const [first, second] = t.metadata.speakerSegments;
    const word = first!.words[0]!;
    const body = { text: 'hello', speakerSegmentId: first!._id };
    expect((await stack.as(user, { method: 'PUT', url: path(t, 'w-nothing-0'), payload: body })).statusCode).toBe(404);
    expect(
      (
        await stack.as(user, {
          method: 'PUT',
          url: path(t, word._id),
          payload: { ...body, speakerSegmentId: 's-nothing-0' },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await stack.as(user, {
          method: 'PUT',
          url: path(t, word._id),
          payload: { ...body, speakerSegmentId: second!._id },
        })
      ).statusCode,
    ).toBe(404);
    const unknown = `/api/transcripts/33333333-3333-4333-8333-333333333333/metadata/words/${word._id}`;
    expect((await stack.as(user, { method: 'PUT', url: unknown, payload: body })).statusCode).toBe(404);
  });
});

test('linking a client: ADMIN and CALLER may, USER may not; the change is an event', async () => {
  const clientId = '44444444-4444-4444-8444-444444444444';
  const otherClientId = '55555555-5555-4555-8555-555555555555';
  // The tenant service announces its clients; the link is checked against what it announced.
  const announce = async (id: string, companyId: string) => {
    const after = {
      name: 'Client',
      organisation: null,
      email: null,
      phone: null,
      externalId: null,
      notes: null,
      ownerId: null,
    };
    const envelope = buildEnvelope({
      type: 'client.created',
      companyId,
      actor: { type: 'system', id: null },
      data: { id, before: null, after },
    });
    await stack.bus.publish([{ topic: 'earshot.tenant', key: companyId, envelope }]);
    await stack.settle();
  };
  await announce(clientId, ACME);
  await announce(otherClientId, OTHER);
  for (const unknown of [otherClientId, '66666666-6666-4666-8666-666666666666']) {
    expect(
      (
        await stack.as(admin, {
          method: 'PUT',
          url: '/api/transcripts/link-client',
          payload: { transcriptId: callTranscript._id, clientId: unknown },
        })
      ).statusCode,
    ).toBe(404);
  }
  const user403 = await stack.as(user, {
    method: 'PUT',
    url: '/api/transcripts/link-client',
    payload: { transcriptId: callTranscript._id, clientId },
  });
  expect(user403.statusCode).toBe(403);
  const res = await stack.as(admin, {
    method: 'PUT',
    url: '/api/transcripts/link-client',
    payload: { transcriptId: callTranscript._id, clientId },
  });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toMatchObject({ transcriptId: callTranscript._id, fileId: callId, clientId });
  expect((await getTranscript(stack, user, callId)).clientId).toBe(clientId);
  // The file id works too, and null unlinks.
  expect(
    (
      await stack.as(caller, {
        method: 'PUT',
        url: '/api/transcripts/link-client',
        payload: { transcriptId: callId, clientId: null },
      })
    ).statusCode,
  ).toBe(200);
  expect((await getTranscript(stack, user, callId)).clientId).toBeNull();
  const events = await emitted(stack, 'transcript.client_linked', callId);
  expect(events.map((e) => [e.data.before, e.data.after])).toEqual([
    [{ clientId: null }, { clientId }],
    [{ clientId }, { clientId: null }],
  ]);
  expect(
    (
      await stack.as(stranger, {
        method: 'PUT',
        url: '/api/transcripts/link-client',
        payload: { transcriptId: callId, clientId },
      })
    ).statusCode,
  ).toBe(404);
});

test('POST /transcripts/transcribe re-runs a finished job: new word ids, the same words', async () => {
  const before = await getTranscript(stack, user, callId);
  const res = await stack.as(user, { method: 'POST', url: '/api/transcripts/transcribe', payload: { fileId: callId } });
  expect(res.statusCode).toBe(202);
  expect(res.json()).toMatchObject({ fileId: callId, status: 'pending' });
  expect((await waitForStatus(stack, user, callId)).status).toBe('completed');
  const after = await getTranscript(stack, user, callId);
  expect(after._id).toBe(before._id);
  expect(spoken(after)).toEqual(spoken(callTranscript));
  expect(words(after)[0]!._id).not.toBe(words(before)[0]!._id);
  expect(await emitted(stack, 'transcript.completed', callId)).toHaveLength(2);
}, 300_000);

test('DELETE /transcripts/:fileId removes the transcript and, through the event, the file and its audio', async () => {
  const t = await getTranscript(stack, user, monoId);
  const res = await stack.as(user, { method: 'DELETE', url: `/api/transcripts/${monoId}` });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toMatchObject({ id: t._id, fileId: monoId });
  await stack.settle();
  expect((await stack.as(user, { method: 'GET', url: `/api/transcripts/file/${monoId}` })).statusCode).toBe(404);
  expect((await stack.as(user, { method: 'GET', url: `/api/files/${monoId}` })).statusCode).toBe(404);
  expect((await stack.as(user, { method: 'GET', url: t.file.url })).statusCode).toBe(404);
  expect((await stack.as(user, { method: 'GET', url: `/api/transcripts/status?fileIds=${monoId}` })).json()).toEqual(
    [],
  );
  expect((await emitted(stack, 'transcript.deleted', monoId)).map((e) => e.data)).toEqual([
    { id: t._id, fileId: monoId },
  ]);
  expect((await stack.as(user, { method: 'DELETE', url: `/api/transcripts/${monoId}` })).statusCode).toBe(404);
});
