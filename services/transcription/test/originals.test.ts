import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  eventDefinition,
  SYSTEM_ACTOR,
  type CompanyPolicies,
  type Envelope,
  type EventType,
  type OriginalWordsDto,
} from '@earshot/contracts';
import { buildEnvelope } from '@earshot/kit';
import type { TestStack } from '@earshot/kit/testing';
import { auditService } from '@earshot/audit-service';
import {
  getTranscript,
  idsOut,
  listenOnLoopback,
  makeTones,
  speechProviderStack,
  upload,
  waitForStatus,
  wordsProvider,
} from './helpers';

// Unredacted originals (policy keepOriginal with encryption at rest): the redaction step
// keeps the words and the audio as recognised, encrypted under the company's data key; only the
// company's ADMIN reads them, every read is in the audit log, and they go with the recording.

const ACME = randomUUID();
const GLOBEX = randomUUID();
const CARD = ['4539', '1488', '0343', '6467'];
const SAID = ['my', 'card', 'number', 'is', ...CARD, 'thanks'];
const provider = wordsProvider(SAID);

let stack: TestStack;
const tokens: Record<'user' | 'admin' | 'caller' | 'host' | 'otherAdmin', string> = {
  user: '',
  admin: '',
  caller: '',
  host: '',
  otherAdmin: '',
};
const audio = makeTones([{ start: 0.1, length: 1.9 }], 2.2);
let fileId: string;

async function publish(type: EventType, companyId: string, data: unknown) {
  const envelope = buildEnvelope({ type, companyId, actor: SYSTEM_ACTOR, data } as Parameters<
    typeof buildEnvelope
  >[0]) as Envelope;
  await stack.bus.publish([{ topic: eventDefinition(type).topic, key: companyId, envelope }]);
  await stack.settle();
}

const policies = (redaction: CompanyPolicies['redaction'], keepOriginal: boolean): CompanyPolicies => ({
  redaction,
  keepOriginal,
  encryption: keepOriginal,
  retention: { recordingsDays: null, chatsDays: null, auditDays: null },
});
const setPolicies = (companyId: string, redaction: CompanyPolicies['redaction'], keepOriginal: boolean) =>
  publish('company.policies_changed', companyId, {
    id: companyId,
    before: policies('off', false),
    after: policies(redaction, keepOriginal),
  });

const get = (token: string, url: string, headers: Record<string, string> = {}) =>
  stack.as(token, { method: 'GET', url, headers });
const originalDir = (companyId: string, id: string) => join(stack.dataDir, 'objects', companyId, 'originals', id);
/** The audit log's entries of reads of one recording's original: what was read, and by whom (role). */
const auditedReads = async (id: string) =>
  stack.database.query<{ what: string; role: string }>(
    "select data->>'what' as what, actor->>'role' as role from audit.entries where type = 'transcript.original_read' and data->>'fileId' = $1 order by occurred_at, what desc",
    [id],
  );

beforeAll(async () => {
  stack = await speechProviderStack(
    await listenOnLoopback(provider),
    { ENCRYPTION_MASTER_KEY: randomBytes(32).toString('hex') },
    undefined,
    [auditService],
  );
  tokens.user = await stack.tokenFor('USER', ACME);
  tokens.admin = await stack.tokenFor('ADMIN', ACME);
  tokens.caller = await stack.tokenFor('CALLER', ACME);
  tokens.host = await stack.tokenFor('HOST_ADMIN', null);
  tokens.otherAdmin = await stack.tokenFor('ADMIN', GLOBEX);
  await setPolicies(ACME, 'text_audio', true);
  fileId = await upload(stack, tokens.user, audio, 'card.wav');
  expect((await waitForStatus(stack, tokens.user, fileId)).status).toBe('completed');
}, 120_000);
afterAll(async () => {
  await stack.close();
  await new Promise((resolve) => provider.close(resolve));
});

test('the transcript is redacted; only its ADMIN is told an original exists', async () => {
  const redacted = await getTranscript(stack, tokens.user, fileId);
  expect(idsOut(JSON.stringify(redacted.metadata.speakerSegments))).not.toMatch(/4539|1488|0343|6467/);
  expect(redacted.metadata.speakerSegments.flatMap((s) => s.words).map((w) => w.text)).toContain('[card number]');
  expect(redacted.hasOriginal).toBe(false);
  expect((await getTranscript(stack, tokens.admin, fileId)).hasOriginal).toBe(true);
  expect((await getTranscript(stack, tokens.host, fileId)).hasOriginal).toBe(false);
});

test('the company ADMIN reads the unredacted words and audio (whole and by range); each read is audited once', async () => {
  const original = await get(tokens.admin, `/api/transcripts/${fileId}/original`);
  expect(original.statusCode).toBe(200);
  expect(original.headers['cache-control']).toBe('no-store');
  const body = original.json() as OriginalWordsDto;
  expect(body.fileId).toBe(fileId);
  expect(body.speakerSegments.flatMap((s) => s.words).map((w) => w.text)).toEqual(SAID);

  const whole = await get(tokens.admin, `/api/transcripts/${fileId}/original/audio`);
  expect(whole.statusCode).toBe(200);
  expect(whole.headers['content-type']).toBe('audio/wav');
  // The audio as uploaded: the stored recording is silenced over the card, the original is not.
  expect(whole.rawPayload.equals(audio)).toBe(true);
  const stored = await get(tokens.user, (await getTranscript(stack, tokens.user, fileId)).audioPath);
  expect(stored.rawPayload.equals(audio)).toBe(false);

  const ranged = await get(tokens.admin, `/api/transcripts/${fileId}/original/audio`, { range: 'bytes=100-1099' });
  expect(ranged.statusCode).toBe(206);
  expect(ranged.headers['content-range']).toBe(`bytes 100-1099/${audio.length}`);
  expect(ranged.rawPayload.equals(audio.subarray(100, 1100))).toBe(true);
  const past = await get(tokens.admin, `/api/transcripts/${fileId}/original/audio`, {
    range: `bytes=${audio.length}-`,
  });
  expect(past.statusCode).toBe(416);

  await stack.settle();
  // The 416 sent nothing: not a read. The others are, once each.
  expect((await auditedReads(fileId)).map((r) => `${r.what} by ${r.role}`).sort()).toEqual([
    'audio by ADMIN',
    'audio by ADMIN',
    'words by ADMIN',
  ]);
});

test('a USER, a CALLER and the platform administrator are refused (403), another company’s ADMIN gets a 404, and none of it is a read', async () => {
  await stack.settle();
  const before = (await auditedReads(fileId)).length;
  for (const token of [tokens.user, tokens.caller, tokens.host]) {
    expect((await get(token, `/api/transcripts/${fileId}/original`)).statusCode).toBe(403);
    expect((await get(token, `/api/transcripts/${fileId}/original/audio`)).statusCode).toBe(403);
  }
  expect((await get(tokens.otherAdmin, `/api/transcripts/${fileId}/original`)).statusCode).toBe(404);
  expect((await get(tokens.otherAdmin, `/api/transcripts/${fileId}/original/audio`)).statusCode).toBe(404);
  await stack.settle();
  expect(await auditedReads(fileId)).toHaveLength(before);
});

test('the original objects on disk are encrypted: no digit of the card, no word, no WAV header', async () => {
  const dir = originalDir(ACME, fileId);
  expect(readdirSync(dir).sort()).toEqual(['audio', 'words.json']);
  for (const name of ['audio', 'words.json']) {
    const raw = readFileSync(join(dir, name));
    expect(raw.subarray(0, 4).toString('latin1')).toBe('ESC1');
    const text = raw.toString('latin1');
    for (const secret of [...CARD, 'card', 'thanks', 'speaker_0', 'RIFF']) expect(text).not.toContain(secret);
  }
});

test('a re-run replaces the words and keeps the audio as first uploaded (the stored one is silenced by then)', async () => {
  expect(
    (await stack.as(tokens.admin, { method: 'POST', url: '/api/transcripts/transcribe', payload: { fileId } }))
      .statusCode,
  ).toBe(202);
  await stack.settle();
  expect((await waitForStatus(stack, tokens.user, fileId)).status).toBe('completed');
  const words = (await get(tokens.admin, `/api/transcripts/${fileId}/original`)).json() as OriginalWordsDto;
  expect(words.speakerSegments.flatMap((s) => s.words).map((w) => w.text)).toEqual(SAID);
  expect((await get(tokens.admin, `/api/transcripts/${fileId}/original/audio`)).rawPayload.equals(audio)).toBe(true);
});

test('deleting the recording removes its original: the objects, and the answer (404)', async () => {
  expect((await stack.as(tokens.admin, { method: 'DELETE', url: `/api/transcripts/${fileId}` })).statusCode).toBe(200);
  await stack.settle();
  expect(existsSync(join(originalDir(ACME, fileId), 'words.json'))).toBe(false);
  expect(existsSync(join(originalDir(ACME, fileId), 'audio'))).toBe(false);
  expect(await stack.database.query('select 1 from transcription.kept_originals where file_id = $1', [fileId])).toEqual(
    [],
  );
  expect((await get(tokens.admin, `/api/transcripts/${fileId}/original`)).statusCode).toBe(404);
});

test('with policy text only the words are kept (no audio: 404); deleting the company removes its originals', async () => {
  await setPolicies(GLOBEX, 'text', true);
  const globexUser = await stack.tokenFor('USER', GLOBEX);
  const id = await upload(stack, globexUser, audio, 'globex.wav');
  expect((await waitForStatus(stack, globexUser, id)).status).toBe('completed');
  expect((await get(tokens.otherAdmin, `/api/transcripts/${id}/original`)).statusCode).toBe(200);
  expect((await get(tokens.otherAdmin, `/api/transcripts/${id}/original/audio`)).statusCode).toBe(404);
  expect(readdirSync(originalDir(GLOBEX, id))).toEqual(['words.json']);

  await publish('company.deleted', GLOBEX, { id: GLOBEX, before: null, after: null });
  expect(existsSync(join(originalDir(GLOBEX, id), 'words.json'))).toBe(false);
  expect(
    await stack.database.query('select 1 from transcription.kept_originals where company_id = $1', [GLOBEX]),
  ).toEqual([]);
}, 60_000);
