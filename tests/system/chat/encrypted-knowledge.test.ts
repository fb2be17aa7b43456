import { randomBytes, randomUUID } from 'node:crypto';
import { readdir, readFile, rename, writeFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  buildEnvelope,
  CompanyKeyRing,
  KeyUnavailableError,
  MasterKeys,
  openText,
  type ServiceContext,
} from '@earshot/kit';
import type { Envelope, FileCitationDto, TranscriptCitationDto } from '@earshot/contracts';
import type { FakeOpenAI } from '@earshot/ai/testing';
import { withoutEncryptionPassTimer, type TestStack } from '@earshot/kit/testing';
import type { ChatConfig } from '../../../services/chat/src/config';
import { encryptionOf, PURPOSES } from '../../../services/chat/src/services/encryption';
import {
  addChatModel,
  createConversation,
  publish,
  stackWithFakeProvider,
  streamReply,
  transcriptCompleted,
  type SseEvent,
} from './helpers';
import { addEmbeddingsModel, createGpt, processed, uploadReady } from './knowledge-fixtures';
import { runKeysCommand } from '../../../scripts/keys';

// Encryption at rest in chat, over the real storage on disk and real PostgreSQL: a
// company with encryption on keeps no word of its knowledge files or transcripts readable in
// either, the assistant still finds and cites them, a plain company is unchanged, turning it on
// encrypts what was there, and deleting the company leaves nothing that can be decrypted.

const MASTER = randomBytes(32).toString('hex');
const ACME = randomUUID();
const PLAIN = randomUUID();
const host = { type: 'user' as const, id: randomUUID(), role: 'HOST_ADMIN' as const, email: 'host@earshot.test' };

// Words that must never be found in plain: lower case, as the scans compare.
const OLD_DOC = '# Returns\n\nA quokka harness may be returned within ninety days for a marzipan voucher.\n';
const NEW_DOC = '# Warranty\n\nThe zanzibar turbine warranty lasts seventeen months from delivery.\n';
const OLD_CALL = 'The customer asked about the pelican invoice from March.';
const NEW_CALL = 'We agreed the flamingo shipment leaves on Thursday.';
const WORDS = ['quokka', 'marzipan', 'zanzibar', 'turbine', 'seventeen', 'pelican', 'flamingo', 'shipment'];

let stack: TestStack;
let fake: FakeOpenAI;
let base: string;
let close: () => Promise<void>;
let ctx: ServiceContext<ChatConfig>;
let admin: string;
let user: string;
let gptId: string;
const seen: Envelope[] = [];

const policies = (encryption: boolean) => ({
  redaction: 'off' as const,
  keepOriginal: false,
  encryption,
  retention: { recordingsDays: null, chatsDays: null, auditDays: null },
});

async function tenantEvent(companyId: string, type: string, data: Record<string, unknown>) {
  await stack.bus.publish([
    {
      topic: 'earshot.tenant',
      key: companyId,
      envelope: buildEnvelope({ type, companyId, actor: host, data } as never),
    },
  ]);
  await stack.settle();
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/** Every stored object that holds one of `words` in plain. */
async function plainObjects(words: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const path of await filesUnder(join(stack.dataDir, 'objects'))) {
    const text = (await readFile(path)).toString('latin1').toLowerCase();
    if (words.some((w) => text.includes(w))) found.push(path);
  }
  return found;
}

/** Every table of the chat schema whose rows, as text, hold one of `words`. */
async function plainTables(words: readonly string[]): Promise<string[]> {
  const tables = await stack.database.query<{ name: string }>(
    "select table_name as name from information_schema.tables where table_schema = 'chat' and table_type = 'BASE TABLE'",
  );
  const found: string[] = [];
  for (const { name } of tables) {
    const [row] = await stack.database.query<{ text: string | null }>(
      `select lower(string_agg(t::text, ' ')) as text from chat."${name}" t`,
    );
    if (words.some((w) => row?.text?.includes(w))) found.push(name);
  }
  return found;
}

async function ask(
  conversationId: string,
  message: string,
  modelId?: string,
): Promise<{ events: SseEvent[]; citations: (FileCitationDto | TranscriptCitationDto)[] }> {
  const { events } = await streamReply(base, user, conversationId, { message, ...(modelId ? { modelId } : {}) });
  const done = events.find((e) => e.event === 'done');
  if (!done) throw new Error(`no done event: ${JSON.stringify(events)}`);
  return { events, citations: (done.data as { citations: (FileCitationDto | TranscriptCitationDto)[] }).citations };
}

async function gptConversation(id: string): Promise<string> {
  const res = await stack.as(user, { method: 'POST', url: '/api/chat/conversations', payload: { customGptId: id } });
  expect(res.statusCode).toBe(201);
  return (res.json() as { _id: string })._id;
}

const doc = (name: string, text: string) => ({ name, type: 'text/markdown', data: Buffer.from(text) });

beforeAll(async () => {
  ({ stack, fake, base, close } = await withoutEncryptionPassTimer(() =>
    stackWithFakeProvider(undefined, { ENCRYPTION_MASTER_KEY: MASTER }),
  ));
  ctx = stack.running.contexts.get('chat') as ServiceContext<ChatConfig>;
  await stack.bus.subscribe({
    group: 'chat-encryption-observer',
    topics: ['earshot.keys'],
    handle: async (e) => void seen.push(e),
  });
  admin = await stack.tokenFor('ADMIN', ACME);
  user = await stack.tokenFor('USER', ACME);
  gptId = (await createGpt(stack, admin, { name: 'Policies' }))._id;
}, 60_000);
afterAll(async () => close());

let oldFile: string;
let newFile: string;

test('turning encryption on seals new knowledge files and transcripts, and the background pass what was there', async () => {
  // Stored before encryption: one file under the key layout of earlier versions (`knowledge/...`).
  oldFile = (await uploadReady(stack, admin, gptId, doc('returns.md', OLD_DOC)))._id;
  const legacy = `knowledge/${gptId}/${oldFile}`;
  const [row] = await stack.database.query<{ storage_key: string }>(
    'select storage_key from chat.knowledge_files where id = $1',
    [oldFile],
  );
  expect(row!.storage_key).toBe(`${ACME}/knowledge/${gptId}/${oldFile}`);
  await mkdir(dirname(join(stack.dataDir, 'objects', legacy)), { recursive: true });
  await rename(join(stack.dataDir, 'objects', row!.storage_key), join(stack.dataDir, 'objects', legacy));
  await stack.database.query('update chat.knowledge_files set storage_key = $1 where id = $2', [legacy, oldFile]);
  await publish(
    stack,
    ...transcriptCompleted(ACME, randomUUID(), 'old-call.wav', [
      { speaker: 'SPEAKER_00', start: 0, end: 4, text: OLD_CALL },
    ]),
  );
  expect(await plainObjects(['quokka'])).toEqual([join(stack.dataDir, 'objects', legacy)]);

  await tenantEvent(ACME, 'company.policies_changed', { id: ACME, before: policies(false), after: policies(true) });
  expect(await encryptionOf(ctx).progress(ACME)).toMatchObject({ state: 'running' });
  newFile = (await uploadReady(stack, admin, gptId, doc('warranty.md', NEW_DOC)))._id;
  await publish(
    stack,
    ...transcriptCompleted(ACME, randomUUID(), 'new-call.wav', [
      { speaker: 'SPEAKER_01', start: 0, end: 5, text: NEW_CALL },
    ]),
  );
  // New data is sealed at once; the old is still plain until the pass.
  expect(await plainObjects(['zanzibar', 'turbine'])).toEqual([]);
  expect(await plainTables(['zanzibar', 'flamingo'])).toEqual([]);
  expect(await plainTables(['quokka', 'pelican'])).toEqual(
    expect.arrayContaining(['knowledge_chunks', 'transcript_segments']),
  );

  await encryptionOf(ctx).encryptExisting();
  await stack.settle();
  // Two originals, the old file's one chunk and the old call's one segment.
  expect(await encryptionOf(ctx).progress(ACME)).toEqual({ state: 'done', done: 4, total: 4 });
  // Told at the start (how many there are) and at the end.
  expect(
    seen.filter((e) => e.type === 'company.encryption_progressed' && e.data.service === 'chat').map((e) => e.data),
  ).toEqual([
    { companyId: ACME, service: 'chat', done: 0, total: 4, state: 'running' },
    { companyId: ACME, service: 'chat', done: 4, total: 4, state: 'done' },
  ]);
  // The legacy object moved under the company's prefix, encrypted; nothing of either file or call is readable.
  const [moved] = await stack.database.query<{ storage_key: string }>(
    'select storage_key from chat.knowledge_files where id = $1',
    [oldFile],
  );
  expect(moved!.storage_key).toBe(`${ACME}/knowledge/${gptId}/${oldFile}`);
  expect(await encryptionOf(ctx).storage.isEncrypted(moved!.storage_key)).toBe(true);
  expect(await plainObjects(WORDS)).toEqual([]);
  expect(await plainTables(WORDS)).toEqual([]);
  // Run again: nothing more to do, nothing changes.
  await encryptionOf(ctx).encryptExisting();
  expect(await plainTables(WORDS)).toEqual([]);
});

test('the originals are served decrypted, as uploaded', async () => {
  for (const [id, text] of [
    [oldFile, OLD_DOC],
    [newFile, NEW_DOC],
  ] as const) {
    const res = await stack.as(user, { method: 'GET', url: `/api/custom-gpt/${gptId}/files/${id}` });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(text);
  }
});

test('the built-in assistant still finds and cites sealed passages, of files and of transcripts', async () => {
  const conversation = await gptConversation(gptId);
  const found = await ask(conversation, 'How long does the turbine warranty last?');
  expect(found.citations[0]).toMatchObject({
    kind: 'file',
    fileId: newFile,
    quote: 'Warranty The zanzibar turbine warranty lasts seventeen months from delivery.',
  });
  // Stemmed words match as before: "returned" finds "return", sealed by the background pass.
  const older = await ask(conversation, 'Can a harness be returned?');
  expect(older.citations[0]).toMatchObject({ kind: 'file', fileId: oldFile });

  const calls = await createConversation(stack, user);
  const invoice = await ask(calls, 'pelican invoices');
  expect(invoice.citations[0]).toMatchObject({ fileName: 'old-call.wav', text: OLD_CALL });
  const shipment = await ask(calls, 'When does the flamingo shipment leave?');
  expect(shipment.citations[0]).toMatchObject({ fileName: 'new-call.wav', text: NEW_CALL });
});

test('a language model gets the opened passages and cites the right one; embeddings are made of the opened text', async () => {
  const { modelId, providerId } = await addChatModel(stack, fake.url);
  // The idle queue embeds the sealed chunks: the provider is sent their words, never a sealed value.
  await addEmbeddingsModel(stack, providerId, 'emb');
  await processed(stack);
  const embedded = JSON.stringify(fake.requests.filter((r) => r.path === '/v1/embeddings').map((r) => r.body!.input));
  expect(embedded).toContain('The zanzibar turbine warranty lasts seventeen months from delivery.');
  expect(embedded).not.toContain('ef1.');
  fake.setReply({ pieces: ['Seventeen months [1].'] });
  const conversation = await gptConversation(gptId);
  const { citations } = await ask(conversation, 'How long does the turbine warranty last?', modelId);
  expect(citations[0]).toMatchObject({ kind: 'file', fileId: newFile });
  const sent = JSON.stringify(fake.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)!.body!.messages);
  expect(sent).toContain('The zanzibar turbine warranty lasts seventeen months from delivery.');
  expect(sent).not.toContain('ef1.');
});

test('a company without encryption is stored and searched as before', async () => {
  const plainAdmin = await stack.tokenFor('ADMIN', PLAIN);
  const gpt = await createGpt(stack, plainAdmin);
  const file = await uploadReady(
    stack,
    plainAdmin,
    gpt._id,
    doc('plain.md', '# Gardens\n\nThe hedgehog garden opens at dawn.\n'),
  );
  expect(file.status).toBe('ready');
  expect(await plainObjects(['hedgehog'])).toEqual([
    join(stack.dataDir, 'objects', PLAIN, 'knowledge', gpt._id, file._id),
  ]);
  const chunks = await stack.database.query<{ text: string; blind: string | null }>(
    'select text, blind from chat.knowledge_chunks where file_id = $1',
    [file._id],
  );
  expect(chunks).toEqual([{ text: expect.stringContaining('The hedgehog garden opens at dawn.'), blind: null }]);
  expect(await encryptionOf(ctx).progress(PLAIN)).toEqual({ state: 'idle', done: 0, total: 0 });
});

test("deleting the company destroys chat's key first: a copied sealed value or object cannot be decrypted", async () => {
  const [chunk] = await stack.database.query<{ text: string }>(
    'select c.text from chat.knowledge_chunks c where c.file_id = $1',
    [newFile],
  );
  const key = `${ACME}/knowledge/${gptId}/${newFile}`;
  const object = await readFile(join(stack.dataDir, 'objects', key));
  expect(chunk!.text.startsWith('ef1.')).toBe(true);
  expect((await encryptionOf(ctx).textOf(ctx.db, ACME)).open(PURPOSES.chunkText, chunk!.text)).toContain(
    'The zanzibar turbine warranty lasts seventeen months from delivery.',
  );

  await tenantEvent(ACME, 'company.deleted', {
    id: ACME,
    before: { name: 'Acme', code: 'ACME', domain: 'acme', status: 'active', maxUsers: 10, maxStorage: null },
    after: null,
  });
  expect(await stack.database.query('select 1 from chat.company_keys where company_id = $1', [ACME])).toEqual([]);
  expect(seen.find((e) => e.type === 'company.key_destroyed' && e.data.service === 'chat')?.data).toEqual({
    companyId: ACME,
    service: 'chat',
    reason: 'company_deleted',
  });
  expect(await stack.database.query('select 1 from chat.knowledge_files where company_id = $1', [ACME])).toEqual([]);

  // A backup's copies, put back: neither opens any more.
  await expect(
    encryptionOf(ctx)
      .textOf(ctx.db, ACME)
      .then((t) => t.open(PURPOSES.chunkText, chunk!.text)),
  ).rejects.toThrow(KeyUnavailableError);
  await mkdir(dirname(join(stack.dataDir, 'objects', key)), { recursive: true });
  await writeFile(join(stack.dataDir, 'objects', key), object);
  await expect(encryptionOf(ctx).storage.get(key)).rejects.toThrow(KeyUnavailableError);
});

const OTHER = randomUUID();

test('the background pass leaves a company whose files are still being processed running, and finishes it later', async () => {
  const otherAdmin = await stack.tokenFor('ADMIN', OTHER);
  const gpt = await createGpt(stack, otherAdmin);
  const file = await uploadReady(
    stack,
    otherAdmin,
    gpt._id,
    doc('notes.md', '# Notes\n\nThe walrus meeting moved to noon.\n'),
  );
  await tenantEvent(OTHER, 'company.policies_changed', { id: OTHER, before: policies(false), after: policies(true) });
  // As if a process were extracting it right now.
  await stack.database.query(
    "update chat.knowledge_files set status = 'extracting', lease_until = now() + interval '1 hour' where id = $1",
    [file._id],
  );
  await encryptionOf(ctx).encryptExisting();
  expect(await encryptionOf(ctx).progress(OTHER)).toMatchObject({ state: 'running' });
  expect(await plainObjects(['walrus'])).toHaveLength(1);
  await stack.database.query("update chat.knowledge_files set status = 'ready', lease_until = null where id = $1", [
    file._id,
  ]);
  await encryptionOf(ctx).encryptExisting();
  expect(await encryptionOf(ctx).progress(OTHER)).toMatchObject({ state: 'done' });
  expect(await plainObjects(['walrus'])).toEqual([]);
  await processed(stack);
});

test("master-key rotation rewraps chat's and prompt's data keys too: sealed text opens under the new key alone", async () => {
  const next = randomBytes(32);
  const printed: string[] = [];
  const env = {
    ...process.env,
    DATA_DIR: stack.dataDir,
    ENCRYPTION_MASTER_KEY: next.toString('hex'),
    ENCRYPTION_PREVIOUS_MASTER_KEY: MASTER,
  };
  expect(await runKeysCommand(['rotate'], { env, database: stack.database, print: (line) => printed.push(line) })).toBe(
    0,
  );
  // OTHER's key in chat and in prompt (ACME's were destroyed with the company).
  expect(printed).toEqual([expect.stringMatching(/^Rewrapped 2 data key\(s\) under master key [0-9a-f]{16}\.$/)]);
  const [chunk] = await stack.database.query<{ text: string }>(
    'select c.text from chat.knowledge_chunks c join chat.knowledge_files f on f.id = c.file_id where f.company_id = $1',
    [OTHER],
  );
  const key = await new CompanyKeyRing('chat', 'chat', new MasterKeys(next)).dataKey(ctx.db, OTHER);
  expect(openText(key!, { companyId: OTHER, purpose: PURPOSES.chunkText }, chunk!.text)).toContain(
    'The walrus meeting moved to noon.',
  );
});
