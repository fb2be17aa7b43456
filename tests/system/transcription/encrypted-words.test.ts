import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import {
  eventDefinition,
  SYSTEM_ACTOR,
  type CompanyPolicies,
  type Envelope,
  type SearchResults,
  type TranscriptDto,
} from '@earshot/contracts';
import {
  BlindIndex,
  buildEnvelope,
  DecryptionError,
  KeyUnavailableError,
  openJson,
  type ServiceContext,
} from '@earshot/kit';
import { withoutEncryptionPassTimer, type TestStack } from '@earshot/kit/testing';
import type { TranscriptionConfig } from '../../../services/transcription/src/config';
import { blindQuery } from '../../../services/transcription/src/services/search';
import { PURPOSES, wordsOf } from '../../../services/transcription/src/services/words-encryption';
import { longTranscript } from '../../../services/transcription/test/long-transcript';
import {
  getTranscript,
  listenOnLoopback,
  makeTones,
  speechProviderStack,
  storedTranscript,
  upload,
  waitForStatus,
} from './helpers';

// Encryption at rest of transcripts' words, through the real worker, HTTP routes and
// PostgreSQL: a company with encryption on has no word of its transcripts, edits or search index
// in the database's text, and still reads, exports, edits and searches them; a plain company's
// rows are as before; turning encryption on seals what was stored; deleting the company shreds.

const SEALED = randomUUID();
const SEALED_ADMIN = randomUUID();
const PLAIN = randomUUID();
const LATER = randomUUID();
const MANY = randomUUID();
const STUCK = randomUUID();
// Words the tests look for in the raw database text: none is part of any other stored value.
const SPOKEN = ['marmalade', 'zeppelin', 'quixotic', 'harbourmaster', 'marmalade', 'tangerine'];
// A pause after the third word: two segments, so two passages per recording.
const words = SPOKEN.map((word, i) => ({
  word,
  start: 0.1 + i * 0.25 + (i >= 3 ? 1 : 0),
  end: 0.3 + i * 0.25 + (i >= 3 ? 1 : 0),
}));
const provider: Server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        task: 'transcribe',
        language: 'english',
        duration: 4,
        text: SPOKEN.join(' '),
        words,
        segments: [],
      }),
    );
  });
});

let stack: TestStack;
let ctx: ServiceContext<TranscriptionConfig>;
const tokens: Record<string, string> = {};
const files: Record<string, string> = {};

const policies = (encryption: boolean): CompanyPolicies => ({
  redaction: 'off',
  keepOriginal: false,
  encryption,
  retention: { recordingsDays: null, chatsDays: null, auditDays: null },
});

async function publish(
  companyId: string,
  type: 'company.policies_changed' | 'company.updated' | 'company.deleted' | 'privacy.export_requested',
  data: Record<string, unknown>,
) {
  const envelope = buildEnvelope({ type, companyId, actor: SYSTEM_ACTOR, data } as never) as Envelope;
  await stack.bus.publish([{ topic: eventDefinition(envelope.type).topic, key: companyId, envelope }]);
  await stack.settle();
}

const turnOn = (companyId: string) =>
  publish(companyId, 'company.policies_changed', { id: companyId, before: policies(false), after: policies(true) });

async function transcribed(companyId: string): Promise<string> {
  const fileId = await upload(stack, tokens[companyId]!, makeTones([{ start: 0.1, length: 3.5 }], 4), 'call.wav');
  expect((await waitForStatus(stack, tokens[companyId]!, fileId)).status).toBe('completed');
  return fileId;
}

/** Everything the database holds of a recording's words, as text: transcript, edits, passages, recording row. */
async function rawText(fileId: string): Promise<string> {
  const parts = await Promise.all([
    stack.database.query<{ t: string }>(
      'select segments::text as t from transcription.transcripts where file_id = $1',
      [fileId],
    ),
    stack.database.query<{ t: string }>(
      'select segments_before::text || segments_after::text as t from transcription.edits where file_id = $1',
      [fileId],
    ),
    stack.database.query<{ t: string }>(
      'select text || tsv::text as t from transcription.search_segments where file_id = $1',
      [fileId],
    ),
    stack.database.query<{ t: string }>('select doc::text as t from transcription.search_files where file_id = $1', [
      fileId,
    ]),
  ]);
  return parts
    .flat()
    .map((r) => r.t)
    .join('\n')
    .toLowerCase();
}

const textOf = (t: TranscriptDto) => t.metadata.speakerSegments.map((s) => s.text).join(' ');

async function search(companyId: string, q: string, sort: 'newest' | 'best' = 'newest'): Promise<SearchResults> {
  const res = await stack.as(tokens[companyId]!, {
    method: 'GET',
    url: `/api/search?q=${encodeURIComponent(q)}&sort=${sort}`,
  });
  expect(res.statusCode).toBe(200);
  return res.json() as SearchResults;
}

beforeAll(async () => {
  const providerUrl = await listenOnLoopback(provider);
  // The tests run the background pass themselves, between looking at a company before and after it.
  stack = await withoutEncryptionPassTimer(() =>
    speechProviderStack(providerUrl, { ENCRYPTION_MASTER_KEY: randomBytes(32).toString('hex') }),
  );
  ctx = stack.running.contexts.get('transcription') as ServiceContext<TranscriptionConfig>;
  for (const company of [SEALED, PLAIN, LATER, MANY, STUCK])
    tokens[company] = await stack.tokenFor('ADMIN', company, company === SEALED ? SEALED_ADMIN : undefined);
  await turnOn(SEALED);
  files.sealed = await transcribed(SEALED);
  files.plain = await transcribed(PLAIN);
  files.later = await transcribed(LATER);
}, 120_000);
afterAll(async () => {
  await stack.close();
  await new Promise((resolve) => provider.close(resolve));
});

test('with encryption on, no spoken word is in the transcript, its passages or its index; the viewer and exports read them', async () => {
  const raw = await rawText(files.sealed!);
  expect(raw).toContain('ef1.');
  const passages = await stack.database.query<{ ord: number; segment_id: string }>(
    'select ord, segment_id from transcription.search_segments where file_id = $1 order by ord',
    [files.sealed],
  );
  for (const word of SPOKEN) expect(raw).not.toContain(word);
  const transcript = await getTranscript(stack, tokens[SEALED]!, files.sealed!);
  expect(textOf(transcript)).toBe(SPOKEN.join(' '));
  expect(passages.map((p) => [p.ord, p.segment_id])).toEqual(
    transcript.metadata.speakerSegments.map((s, i) => [i + 1, s._id]),
  );
  const txt = await stack.as(tokens[SEALED]!, {
    method: 'GET',
    url: `/api/transcripts/${files.sealed}/export?format=txt`,
  });
  expect(txt.statusCode).toBe(200);
  expect(txt.body).toContain('marmalade zeppelin quixotic');
});

test("a person's export holds their transcripts' words opened, not sealed", async () => {
  const jobId = randomUUID();
  await publish(SEALED, 'privacy.export_requested', { jobId, subject: { kind: 'user', id: SEALED_ADMIN } });
  const part = JSON.parse(
    readFileSync(join(stack.dataDir, 'objects', 'privacy', jobId, 'transcription.json'), 'utf8'),
  ) as { transcripts: { fileId: string; segments: { text: string }[] }[] };
  expect(part.transcripts.map((t) => t.fileId)).toEqual([files.sealed]);
  expect(part.transcripts[0]!.segments.map((s) => s.text).join(' ')).toBe(SPOKEN.join(' '));
});

test("search finds an encrypted company's words through the blind index and marks them in the opened text", async () => {
  const found = await search(SEALED, 'zeppelin');
  expect(found.items.map((i) => i.fileId)).toEqual([files.sealed]);
  expect(found.items[0]!.hits[0]!.snippet).toContain('<mark>zeppelin</mark>');
  expect(found.items[0]!.hits[0]!.snippet).toContain('quixotic');
  // A phrase (positions are kept) and a word that was not said.
  expect((await search(SEALED, '"zeppelin quixotic"')).items).toHaveLength(1);
  expect((await search(SEALED, '"quixotic zeppelin"')).items).toHaveLength(0);
  expect((await search(SEALED, 'aubergine')).items).toHaveLength(0);
  // Best match ranks sealed passages too (ts_rank over the tokens and their positions).
  const best = await search(SEALED, 'marmalade', 'best');
  expect(best.items.map((i) => i.fileId)).toEqual([files.sealed]);
  expect(best.items[0]!.hits[0]!.snippet).toBe('<mark>marmalade</mark> zeppelin quixotic');
  // Another company's search does not reach it, and a HOST_ADMIN searching every company does.
  expect((await search(PLAIN, 'zeppelin')).items.map((i) => i.fileId)).toEqual([files.plain]);
  const host = await stack.tokenFor('HOST_ADMIN', null);
  const all = (await stack.as(host, { method: 'GET', url: '/api/search?q=tangerine' })).json() as SearchResults;
  expect(all.items.map((i) => i.fileId).sort()).toEqual([files.sealed, files.plain, files.later].sort());
});

test('edits of an encrypted transcript are stored sealed, and read back through the viewer, undo and search', async () => {
  const before = await getTranscript(stack, tokens[SEALED]!, files.sealed!);
  const segment = before.metadata.speakerSegments[0]!;
  const edited = await stack.as(tokens[SEALED]!, {
    method: 'PUT',
    url: `/api/transcripts/${files.sealed}/segments/${segment._id}`,
    payload: { text: `${segment.text} xylophone` },
  });
  expect(edited.statusCode).toBe(200);
  const editId = (edited.json() as { editId: string }).editId;
  const raw = await rawText(files.sealed!);
  for (const word of [...SPOKEN, 'xylophone']) expect(raw).not.toContain(word);
  expect(textOf(await getTranscript(stack, tokens[SEALED]!, files.sealed!))).toContain('xylophone');
  expect((await search(SEALED, 'xylophone')).items).toHaveLength(1);
  const undone = await stack.as(tokens[SEALED]!, {
    method: 'POST',
    url: `/api/transcripts/${files.sealed}/edits/${editId}/undo`,
  });
  expect(undone.statusCode).toBe(200);
  expect(textOf(await getTranscript(stack, tokens[SEALED]!, files.sealed!))).toBe(SPOKEN.join(' '));
  expect((await search(SEALED, 'xylophone')).items).toHaveLength(0);
  const [{ n }] = (await stack.database.query<{ n: number }>(
    `select count(*)::int as n from transcription.edits where file_id = $1 and jsonb_typeof(segments_before) = 'object' and jsonb_typeof(segments_after) = 'object'`,
    [files.sealed],
  )) as [{ n: number }];
  expect(n).toBe(2);
});

test('a company without encryption keeps its rows exactly as before: plain words, lexemes, no key', async () => {
  const raw = await rawText(files.plain!);
  expect(raw).not.toContain('ef1.');
  for (const word of SPOKEN) expect(raw).toContain(word);
  const [row] = await stack.database.query<{ sealed: boolean }>(
    'select sealed from transcription.search_files where file_id = $1',
    [files.plain],
  );
  expect(row!.sealed).toBe(false);
  expect(
    await stack.database.query('select 1 from transcription.company_keys where company_id = $1', [PLAIN]),
  ).toHaveLength(0);
});

test('turning encryption on seals the existing transcripts in the background, with progress; they still read and search', async () => {
  const edit = await stack.as(tokens[LATER]!, {
    method: 'POST',
    url: `/api/transcripts/${files.later}/replace`,
    payload: { find: 'tangerine', replace: 'clementine' },
  });
  expect(edit.json()).toMatchObject({ replaced: 1 });
  expect(await rawText(files.later!)).toContain('clementine');
  await turnOn(LATER);
  const words = wordsOf(ctx);
  expect(await words.progress(LATER)).toEqual({ state: 'running', done: 0, total: 0 });
  await words.encryptExisting();
  expect(await words.progress(LATER)).toEqual({ state: 'done', done: 1, total: 1 });
  const raw = await rawText(files.later!);
  for (const word of [...SPOKEN, 'clementine']) expect(raw).not.toContain(word);
  expect(textOf(await getTranscript(stack, tokens[LATER]!, files.later!))).toContain('clementine');
  expect((await search(LATER, 'clementine')).items.map((i) => i.fileId)).toEqual([files.later]);
  const progressed = await stack.database.query<{ data: unknown }>(
    `select envelope->'data' as data from transcription.outbox where envelope->>'type' = 'company.encryption_progressed' and envelope->>'companyId' = $1 order by seq`,
    [LATER],
  );
  expect(progressed.map((row) => row.data)).toEqual([
    { companyId: LATER, service: 'transcription', done: 0, total: 1, state: 'running' },
    { companyId: LATER, service: 'transcription', done: 1, total: 1, state: 'done' },
  ]);
  // Run again: nothing left to do, nothing sealed twice.
  await words.encryptExisting();
  expect(textOf(await getTranscript(stack, tokens[LATER]!, files.later!))).toContain('clementine');
});

test('a recording with more distinct words than one tsvector holds is found by its passages, and sealed by the background pass', async () => {
  // 40,000 distinct words: 1.6 MB of lexemes, and 1.3 MB of blind tokens once sealed (1 MB at most in one tsvector).
  const word = (n: number) => `many${n}${'q'.repeat(36)}`;
  const fileId = await storedTranscript(
    stack,
    ctx,
    MANY,
    'long call.wav',
    longTranscript({ words: 40_000, seconds: 10_800, word }),
  );
  // An edit indexes it, as every write to a transcript does.
  const first = (await getTranscript(stack, tokens[MANY]!, fileId)).metadata.speakerSegments[0]!;
  const edited = await stack.as(tokens[MANY]!, {
    method: 'PUT',
    url: `/api/transcripts/${fileId}/segments/${first._id}`,
    payload: { text: `${first.text} xylophone` },
  });
  expect(edited.statusCode).toBe(200);
  const found = async () => {
    const docs = await stack.database.query<{ none: boolean }>(
      'select doc is null as none from transcription.search_files where file_id = $1',
      [fileId],
    );
    expect(docs).toEqual([{ none: true }]);
    for (const q of ['xylophone', word(39_999)])
      expect((await search(MANY, q)).items.map((i) => i.fileId)).toEqual([fileId]);
    expect((await search(MANY, 'marmalade')).items).toHaveLength(0);
    expect((await search(PLAIN, word(5))).items).toHaveLength(0);
  };
  await found();

  await turnOn(MANY);
  const words = wordsOf(ctx);
  await words.encryptExisting();
  expect(await words.progress(MANY)).toEqual({ state: 'done', done: 1, total: 1 });
  const raw = await rawText(fileId);
  for (const n of [0, 20_000, 39_999]) expect(raw).not.toContain(word(n));
  await found();
}, 120_000);

test('a recording that cannot be sealed does not leave the later ones plain; the pass is not done until it is sealed', async () => {
  const stored = (word: string) =>
    storedTranscript(stack, ctx, STUCK, `${word}.wav`, longTranscript({ words: 12, seconds: 6, word: () => word }));
  const stuck = await stored('pomegranate');
  const later = await stored('persimmon');
  // A fault of the database for the first recording only: every write to its transcript is refused.
  await stack.database.query(
    `create function transcription.refuse_write() returns trigger language plpgsql as $$ begin raise exception 'refused'; end $$`,
  );
  await stack.database.query(
    `create trigger refuse_write before update on transcription.transcripts for each row when (old.file_id = '${stuck}') execute function transcription.refuse_write()`,
  );
  await turnOn(STUCK);
  const words = wordsOf(ctx);
  await expect(words.encryptExisting()).rejects.toThrow('1 of 2 transcripts could not be encrypted');
  expect(await rawText(stuck)).toContain('pomegranate');
  expect(await rawText(later)).not.toContain('persimmon');
  expect((await words.progress(STUCK)).state).toBe('running');

  await stack.database.query('drop trigger refuse_write on transcription.transcripts');
  await stack.database.query('drop function transcription.refuse_write');
  await words.encryptExisting();
  expect(await words.progress(STUCK)).toEqual({ state: 'done', done: 2, total: 2 });
  expect(await rawText(stuck)).not.toContain('pomegranate');
  expect(textOf(await getTranscript(stack, tokens[STUCK]!, later))).toContain('persimmon');
});

test('a language change indexes sealed passages again with the new dictionary (stemming), from their opened words', async () => {
  const company = (language: string) => ({
    name: 'Later',
    code: 'LATER',
    domain: 'later.test',
    status: 'active',
    maxUsers: null,
    maxStorage: null,
    type: 'b2b',
    language,
  });
  // The fallback dictionary (simple) does not stem: a plural is another word.
  expect((await search(LATER, 'clementines')).items).toHaveLength(0);
  await publish(LATER, 'company.updated', { id: LATER, before: company('et'), after: company('en') });
  expect((await search(LATER, 'clementines')).items.map((i) => i.fileId)).toEqual([files.later]);
  const raw = await rawText(files.later!);
  for (const word of [...SPOKEN, 'clementin']) expect(raw).not.toContain(word);
});

test("a query's lexemes are replaced by tokens, quotes and backslashes unescaped first; operators are kept", () => {
  const index = new BlindIndex(randomBytes(32), LATER);
  expect(blindQuery("'zeppelin' <-> 'quixot' & !'harbour'", index)).toBe(
    `'${index.token('zeppelin')}' <-> '${index.token('quixot')}' & !'${index.token('harbour')}'`,
  );
  expect(blindQuery("'o''neil' | 'a\\\\b'", index)).toBe(`'${index.token("o'neil")}' | '${index.token('a\\b')}'`);
  expect(blindQuery('', index)).toBe('');
});

test('deleting the company destroys its words key first: a backup of a sealed row cannot be opened any more', async () => {
  const [row] = await stack.database.query<{ segments: { enc: string } }>(
    'select segments from transcription.transcripts where file_id = $1',
    [files.sealed],
  );
  const backup = row!.segments;
  const purpose = PURPOSES.segments(files.sealed!);
  // While the key exists the backup opens (so the failure below is the shredding, not the copy).
  expect(await wordsOf(ctx).open(ctx.db, SEALED, purpose, backup)).toHaveLength(2);
  await publish(SEALED, 'company.deleted', {
    id: SEALED,
    before: { name: 'Sealed', code: 'SEALED', domain: 'sealed', status: 'active', maxUsers: 10, maxStorage: null },
    after: null,
  });
  expect(
    await stack.database.query('select 1 from transcription.transcripts where company_id = $1', [SEALED]),
  ).toHaveLength(0);
  expect(
    await stack.database.query('select 1 from transcription.company_keys where company_id = $1', [SEALED]),
  ).toHaveLength(0);
  const [destroyed] = await stack.database.query<{ data: unknown }>(
    `select envelope->'data' as data from transcription.outbox where envelope->>'type' = 'company.key_destroyed' and envelope->>'companyId' = $1`,
    [SEALED],
  );
  expect(destroyed!.data).toEqual({ companyId: SEALED, service: 'transcription', reason: 'company_deleted' });
  await expect(wordsOf(ctx).open(ctx.db, SEALED, purpose, backup)).rejects.toThrow(KeyUnavailableError);
  // Nor does any other key: the company's was the only one that sealed it.
  expect(() => openJson(randomBytes(32), { companyId: SEALED, purpose }, backup.enc)).toThrow(DecryptionError);
});
