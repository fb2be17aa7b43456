import { randomUUID } from 'node:crypto';
import { strFromU8, unzipSync } from 'fflate';
import {
  EXPORT_FORMATS,
  eventDefinition,
  REDACTED_HEADER,
  SYSTEM_ACTOR,
  type CompanyPolicies,
  type Envelope,
  type TranscriptDto,
  type TranscriptEditsPage,
} from '@earshot/contracts';
import { buildEnvelope, type ServiceContext } from '@earshot/kit';
import { createTestStack, serveUnmeteredCredits, type TestStack } from '@earshot/kit/testing';
import { fileService } from '@earshot/file-service';
import { transcriptionService, type TranscriptionConfig } from '@earshot/transcription-service';
import { saveResult } from '../../../services/transcription/src/repositories/transcripts';
import { completionEvents } from '../../../services/transcription/src/services/queue';
import { buildSegments, speakersFor } from '../../../services/transcription/src/services/segments';
import { emitted, getTranscript, idsOut, makeTones, upload } from './helpers';

// With a company's redaction on, an edit cannot put a card number back into a transcript: each
// write path (a segment's text, find and replace, one word, a speaker's name) runs the detectors
// on what it writes before it is stored, indexed, exported or published, in every form a person
// may type it (glued to a word or sign, spaced and glued, Unicode dashes, full-width digits). A
// company with redaction off keeps what was typed.

const REDACTING = randomUUID();
const PLAIN = randomUUID();
/** Redaction off at first, turned on later. */
const LATER = randomUUID();
/** A Luhn-valid Visa number; its digit groups must be nowhere once it is typed. */
const CARD = ['4539', '1488', '0343', '6467'];
const SECRET = new RegExp(`${CARD.join('|')}|[０-９]`);
const LABEL = '[card number]';

/** The forms a card number is typed in that the detectors must find, each hidden whole. */
const FORMS: Record<string, string> = {
  'glued to a word and a comma': `card:${CARD.join('')},`,
  'glued to a sign': `card#${CARD.join('')}`,
  'spaced and glued to a word': `card:${CARD.join(' ')}`,
  'joined by Unicode dashes': `${CARD[0]}\u2010${CARD[1]}\u2013${CARD[2]}\u2014${CARD[3]}`,
  'joined by minus signs': CARD.join('\u2212'),
  'in full-width digits': CARD.join('').replace(/\d/g, (d) => String.fromCharCode(0xff10 + Number(d))),
};

type Path = 'segment' | 'replace' | 'word' | 'speaker';
const PATHS: Path[] = ['segment', 'replace', 'word', 'speaker'];

let stack: TestStack;
let ctx: ServiceContext<TranscriptionConfig>;
let tokens: Record<'redacting' | 'plain' | 'later', string>;

async function setRedaction(companyId: string, redaction: CompanyPolicies['redaction']) {
  const policies = (mode: CompanyPolicies['redaction']): CompanyPolicies => ({
    redaction: mode,
    keepOriginal: false,
    encryption: false,
    retention: { recordingsDays: null, chatsDays: null, auditDays: null },
  });
  const envelope = buildEnvelope({
    type: 'company.policies_changed',
    companyId,
    actor: SYSTEM_ACTOR,
    data: { id: companyId, before: policies('off'), after: policies(redaction) },
  }) as Envelope;
  await stack.bus.publish([{ topic: eventDefinition(envelope.type).topic, key: companyId, envelope }]);
  await stack.settle();
}

beforeAll(async () => {
  stack = await createTestStack([fileService, transcriptionService], { TRANSCRIPTION_WORKER: 'false' });
  serveUnmeteredCredits(stack.database);
  ctx = stack.running.contexts.get('transcription') as ServiceContext<TranscriptionConfig>;
  tokens = {
    redacting: await stack.tokenFor('USER', REDACTING),
    plain: await stack.tokenFor('USER', PLAIN),
    later: await stack.tokenFor('USER', LATER),
  };
  await setRedaction(REDACTING, 'text');
}, 120_000);
afterAll(async () => stack.close());

/** Words of a sentence, one every 0.4 s from `at`. */
const spoken = (sentence: string, at: number) =>
  sentence.split(' ').map((text, i) => ({ text, start: at + i * 0.4, end: at + i * 0.4 + 0.3 }));

/** A completed two-speaker call with no number in it, written and announced as the worker does. */
async function completedCall(token: string, companyId: string): Promise<TranscriptDto> {
  const fileId = await upload(stack, token, makeTones([{ start: 0.2, length: 0.5 }], 1), 'call.wav');
  const duration = 12;
  const result = {
    engine: 'test',
    duration,
    speakers: speakersFor(2),
    segments: buildSegments(
      [
        { speakerId: 'speaker_0', words: spoken('please read me the billing details now', 0) },
        { speakerId: 'speaker_1', words: spoken('sure here they are', 5) },
      ],
      duration,
      `r${randomUUID().slice(0, 6)}`,
    ),
    peaks: { version: 1 as const, duration, pointsPerSecond: 10, length: 0, data: [] },
  };
  await ctx.transact(async (tx, emit) => {
    const { id, originalName } = await saveResult(tx, fileId, result);
    completionEvents(companyId, { id, fileId, fileName: originalName }, result).forEach(emit);
  });
  await stack.database.query(`update transcription.jobs set status = 'completed' where file_id = $1`, [fileId]);
  await stack.settle();
  return getTranscript(stack, token, fileId);
}

/** Types `typed` through one write path; answers with what the response says redaction hid. */
async function write(token: string, path: Path, t: TranscriptDto, typed: string): Promise<number> {
  const segment = t.metadata.speakerSegments.find((s) => s.speakerId === 'speaker_0')!;
  const word = segment.words.find((w) => w.text === 'billing')!;
  const request = {
    segment: {
      method: 'PUT' as const,
      url: `/api/transcripts/${t.fileId}/segments/${segment._id}`,
      payload: { text: `please read me the ${typed} details now` },
    },
    replace: {
      method: 'POST' as const,
      url: `/api/transcripts/${t.fileId}/replace`,
      payload: { find: 'billing', replace: typed },
    },
    word: {
      method: 'PUT' as const,
      url: `/api/transcripts/${t._id}/metadata/words/${word._id}`,
      payload: { text: typed, speakerSegmentId: segment._id },
    },
    speaker: {
      method: 'PUT' as const,
      url: `/api/transcripts/${t.fileId}/speakers/speaker_0`,
      payload: { name: `Dana ${typed}` },
    },
  }[path];
  const res = await stack.as(token, request);
  expect(res.statusCode).toBe(200);
  await stack.settle();
  if (path === 'speaker') return Number(res.headers[REDACTED_HEADER] ?? 0);
  return (res.json() as { redacted?: number }).redacted ?? 0;
}

/** An export's text: a Word file's document unpacked, anything else as it is. */
function textOf(body: Buffer): string {
  if (body.subarray(0, 2).toString('latin1') !== 'PK') return body.toString('utf8');
  return Object.values(unzipSync(new Uint8Array(body)))
    .map((bytes) => strFromU8(bytes))
    .join('\n');
}

/** Everything a reader of the transcript can get at: the stored transcript, its history, its events, every export. */
async function everywhere(token: string, t: TranscriptDto): Promise<Record<string, string>> {
  const seen: Record<string, string> = {
    stored: JSON.stringify(await getTranscript(stack, token, t.fileId)),
    history: JSON.stringify(
      (await stack.as(token, { method: 'GET', url: `/api/transcripts/${t.fileId}/edits` })).json<TranscriptEditsPage>(),
    ),
    events: JSON.stringify(
      await Promise.all(
        ['transcript.segments_changed', 'transcript.speakers_changed', 'transcript.word_edited'].map((type) =>
          emitted(stack, type, t.fileId),
        ),
      ),
    ),
  };
  for (const format of EXPORT_FORMATS) {
    const res = await stack.as(token, { method: 'GET', url: `/api/transcripts/${t.fileId}/export?format=${format}` });
    expect(res.statusCode).toBe(200);
    seen[format] = textOf(res.rawPayload);
  }
  return seen;
}

/** The files a search for the card's digits (whole, and each group) finds. */
async function searchHits(token: string): Promise<string[]> {
  const hits: string[] = [];
  for (const q of [CARD.join(''), ...CARD]) {
    const res = await stack.as(token, { method: 'GET', url: `/api/search?q=${encodeURIComponent(q)}` });
    expect(res.statusCode).toBe(200);
    hits.push(...(res.json().items as { fileId: string }[]).map((i) => i.fileId));
  }
  return hits;
}

describe.each(PATHS)('with redaction on, the %s write path', (path) => {
  test.each(Object.entries(FORMS))(
    'stores, indexes, exports and publishes a card typed %s as its label',
    async (_, typed) => {
      const t = await completedCall(tokens.redacting, REDACTING);
      expect(await write(tokens.redacting, path, t, typed)).toBe(1);
      const seen = await everywhere(tokens.redacting, t);
      for (const [where, text] of Object.entries(seen))
        expect({ where, leaked: SECRET.exec(idsOut(text))?.[0] ?? null }).toEqual({ where, leaked: null });
      // The label is written where the number was (Word's XML may split it across runs: its words are there).
      expect(seen.stored).toContain(LABEL);
      for (const format of EXPORT_FORMATS) expect(seen[format]).toMatch(/card number/);
      expect(await searchHits(tokens.redacting)).not.toContain(t.fileId);
    },
  );
});

test('with redaction on, the text around the number stays as typed and a label cannot be edited back', async () => {
  const t = await completedCall(tokens.redacting, REDACTING);
  await write(tokens.redacting, 'segment', t, FORMS['glued to a word and a comma']!);
  const segment = (await getTranscript(stack, tokens.redacting, t.fileId)).metadata.speakerSegments.find(
    (s) => s.speakerId === 'speaker_0',
  )!;
  expect(segment.text).toBe(`please read me the card:${LABEL}, details now`);
  // Find and replace the label by the number: it is the label again.
  const back = await stack.as(tokens.redacting, {
    method: 'POST',
    url: `/api/transcripts/${t.fileId}/replace`,
    payload: { find: LABEL, replace: CARD.join(' ') },
  });
  expect(back.json()).toMatchObject({ replaced: 1, redacted: 1 });
  const after = await getTranscript(stack, tokens.redacting, t.fileId);
  // The number is four words now: its last, "6467,", is only number and comma, so the label takes it whole.
  expect(after.metadata.speakerSegments.find((s) => s.speakerId === 'speaker_0')!.text).toBe(
    `please read me the card:${LABEL} details now`,
  );
});

describe.each(PATHS)('with redaction off, the %s write path', (path) => {
  test('keeps the number as typed, and the response says nothing was redacted', async () => {
    const t = await completedCall(tokens.plain, PLAIN);
    const typed = FORMS['spaced and glued to a word']!;
    expect(await write(tokens.plain, path, t, typed)).toBe(0);
    const stored = await getTranscript(stack, tokens.plain, t.fileId);
    const where =
      path === 'speaker'
        ? stored.metadata.speakers.map((s) => s.label)
        : stored.metadata.speakerSegments.map((s) => s.text);
    expect(where.join('\n')).toContain(typed);
    // Search reads the words (a speaker's name is not searched).
    if (path !== 'speaker') expect(await searchHits(tokens.plain)).toContain(t.fileId);
  });
});

test('a redo of an edit typed before the company turned redaction on brings back the label, not the number', async () => {
  const t = await completedCall(tokens.later, LATER);
  const segment = t.metadata.speakerSegments.find((s) => s.speakerId === 'speaker_0')!;
  const typed = await stack.as(tokens.later, {
    method: 'PUT',
    url: `/api/transcripts/${t.fileId}/segments/${segment._id}`,
    payload: { text: `please read me the ${FORMS['glued to a sign']} details now` },
  });
  expect(typed.json()).not.toHaveProperty('redacted');
  const { editId } = typed.json() as { editId: string };
  const undo = await stack.as(tokens.later, {
    method: 'POST',
    url: `/api/transcripts/${t.fileId}/edits/${editId}/undo`,
  });
  expect(undo.statusCode).toBe(200);
  await setRedaction(LATER, 'text');
  const redo = await stack.as(tokens.later, {
    method: 'POST',
    url: `/api/transcripts/${t.fileId}/edits/${editId}/redo`,
  });
  expect(redo.statusCode).toBe(200);
  expect(redo.json()).toMatchObject({ redacted: 1 });
  await stack.settle();
  const after = await getTranscript(stack, tokens.later, t.fileId);
  expect(after.metadata.speakerSegments.find((s) => s._id === segment._id)!.text).toBe(
    `please read me the card#${LABEL} details now`,
  );
  expect(await searchHits(tokens.later)).not.toContain(t.fileId);
});
