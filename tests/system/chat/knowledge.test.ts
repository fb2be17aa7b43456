import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { hashedEmbedding, type FakeOpenAI } from '@earshot/ai/testing';
import type { ConversationDto, FileCitationDto, KnowledgeFileDto } from '@earshot/contracts';
import type { TestStack } from '@earshot/kit/testing';
import { addChatModel, messagesOf, stackWithFakeProvider, streamReply, type SseEvent } from './helpers';
import { addEmbeddingsModel, createGpt, makeDocx, makePdf, processed, upload, uploadReady } from './knowledge-fixtures';

const ACME = randomUUID();
const PDF = 'application/pdf';

let stack: TestStack;
let fake: FakeOpenAI;
let base: string;
let close: () => Promise<void>;
let admin: string;
let user: string;
let gptId: string;
let handbookId: string;
/** While set, the embeddings model of that name fails (a re-embedding that has not finished). */
let failing: string | null = null;

const PAGE_ONE = 'Welcome to the Northwind employee handbook. Office hours are nine to five on weekdays.';
const PAGE_TWO = 'Refund policy: customers may return hardware within 45 days of delivery for a full refund.';

// The fake's vectors: "reimbursement" means "refund" (what a real embeddings model knows and
// full-text search does not); each model has its own space and size.
const embedFor = (text: string, model: string) => {
  if (model === failing) throw new Error(`${model} is unavailable`);
  const words = text.replace(/reimbursements?/gi, 'refund');
  return model === 'emb-b' ? hashedEmbedding(words, 48, 'b') : hashedEmbedding(words, 64, 'a');
};

async function ask(
  conversationId: string,
  message: string,
): Promise<{ events: SseEvent[]; done: { citations: FileCitationDto[] } }> {
  const { events } = await streamReply(base, user, conversationId, { message });
  const done = events.find((e) => e.event === 'done');
  if (!done) throw new Error(`no done event: ${JSON.stringify(events)}`);
  return { events, done: done.data as { citations: FileCitationDto[] } };
}

async function gptConversation(id = gptId): Promise<string> {
  const res = await stack.as(user, { method: 'POST', url: '/api/chat/conversations', payload: { customGptId: id } });
  expect(res.statusCode).toBe(201);
  expect((res.json() as ConversationDto).customGptId).toBe(id);
  return (res.json() as ConversationDto)._id;
}

const embeddingRequests = () => fake.requests.filter((r) => r.path === '/v1/embeddings');

beforeAll(async () => {
  ({ stack, fake, base, close } = await stackWithFakeProvider());
  fake.embed = embedFor;
  admin = await stack.tokenFor('ADMIN', ACME);
  user = await stack.tokenFor('USER', ACME);
  gptId = (
    await createGpt(stack, admin, { name: 'Handbook', instructions: 'You are the Northwind handbook assistant.' })
  )._id;
}, 60_000);
afterAll(async () => close());

test('a two-page PDF is accepted at once, then extracted with its page numbers and ready', async () => {
  const res = await upload(stack, admin, gptId, {
    name: 'handbook.pdf',
    type: PDF,
    data: await makePdf([PAGE_ONE, PAGE_TWO]),
  });
  expect(res.statusCode).toBe(201);
  expect(res.json()).toMatchObject({
    name: 'handbook.pdf',
    status: 'queued',
    mimeType: PDF,
    progress: 0,
    chunks: 0,
    error: null,
  });
  handbookId = (res.json() as KnowledgeFileDto)._id;
  await processed(stack);
  const files = (
    await stack.as(admin, { method: 'GET', url: `/api/custom-gpt/${gptId}/files` })
  ).json() as KnowledgeFileDto[];
  expect(files).toEqual([
    expect.objectContaining({ _id: handbookId, status: 'ready', pages: 2, chunks: 2, progress: 100, error: null }),
  ]);
});

test('the built-in assistant answers from the GPT files with the page, saying what it is', async () => {
  const conversation = await gptConversation();
  const { events, done } = await ask(conversation, 'How many days do customers have to return hardware?');
  expect(events[0]!.data).toMatchObject({ builtIn: true });
  const text = events
    .filter((e) => e.event === 'delta')
    .map((e) => e.data.text as string)
    .join('');
  expect(text).toContain("I'm Earshot's built-in search assistant, not a language model");
  expect(text).toContain('*handbook.pdf*, page 2');
  expect(done.citations[0]).toEqual({
    kind: 'file',
    fileId: handbookId,
    fileName: 'handbook.pdf',
    page: 2,
    index: 1,
    quote: PAGE_TWO,
  });
  // The reply is stored with its file citations, and the event names the GPT.
  const [, reply] = await messagesOf(stack, user, conversation);
  expect(reply!.citations[0]).toMatchObject({ kind: 'file', page: 2 });
  const [finished] = await stack.database.query<{ data: { customGptId: string } }>(
    "select envelope->'data' as data from chat.outbox where envelope->>'type' = 'chat_reply.finished' order by seq desc limit 1",
  );
  expect(finished!.data.customGptId).toBe(gptId);
});

test('the original is served as it was uploaded, to those who may chat with the GPT', async () => {
  const res = await stack.as(user, { method: 'GET', url: `/api/custom-gpt/${gptId}/files/${handbookId}` });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe(PDF);
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(String(res.headers['content-disposition'])).toMatch(/^inline; filename\*=UTF-8''handbook\.pdf$/);
  expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
});

test('DOCX keeps its headings, Markdown its sections, and HTML is served as text, never rendered', async () => {
  const docx = await uploadReady(stack, admin, gptId, {
    name: 'travel.docx',
    type: 'application/octet-stream',
    data: await makeDocx([
      { heading: 'Travel', paragraphs: ['Book trains for trips under four hours.'] },
      { heading: 'Expenses', paragraphs: ['Submit receipts within a fortnight.'] },
    ]),
  });
  expect(docx).toMatchObject({ status: 'ready', pages: null, chunks: 2 });
  const md = await uploadReady(stack, admin, gptId, {
    name: 'security.md',
    type: 'text/markdown',
    data: Buffer.from(
      '# Security\n\nBadges must be worn at all times.\n\n## Visitors\n\nVisitors sign in at reception.\n',
    ),
  });
  expect(md).toMatchObject({ status: 'ready', chunks: 2 });
  const html = await uploadReady(stack, admin, gptId, {
    name: 'faq.html',
    type: 'text/html',
    data: Buffer.from(
      '<html><head><script>alert(1)</script></head><body><h1>FAQ</h1><p>Parking is free &amp; covered.</p></body></html>',
    ),
  });
  expect(html).toMatchObject({ status: 'ready' });
  const served = await stack.as(user, { method: 'GET', url: `/api/custom-gpt/${gptId}/files/${html._id}` });
  expect(served.headers['content-type']).toBe('text/plain; charset=utf-8');

  const conversation = await gptConversation();
  const { done } = await ask(conversation, 'receipts fortnight');
  expect(done.citations[0]).toMatchObject({
    fileId: docx._id,
    fileName: 'travel.docx',
    quote: 'Expenses Submit receipts within a fortnight.',
  });
  expect(done.citations[0]!.page).toBeUndefined();
  const parking = await ask(conversation, 'Is parking covered?');
  // Entities decoded, the script left out.
  expect(parking.done.citations[0]).toMatchObject({ fileId: html._id, quote: 'FAQ Parking is free & covered.' });
});

test('a text file named .pdf is 415 and leaves nothing behind', async () => {
  const before = (
    await stack.as(admin, { method: 'GET', url: `/api/custom-gpt/${gptId}/files` })
  ).json() as KnowledgeFileDto[];
  const stored = await readdir(join(stack.dataDir, 'objects', ACME, 'knowledge', gptId));
  const res = await upload(stack, admin, gptId, {
    name: 'report.pdf',
    type: PDF,
    data: Buffer.from('just some text pretending to be a PDF'),
  });
  expect(res.statusCode).toBe(415);
  expect(res.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', details: [{ field: 'file' }] });
  const zip = await upload(stack, admin, gptId, {
    name: 'archive.txt',
    type: 'text/plain',
    data: Buffer.from('PK\u0003\u0004\u0014\u0000\u0000\u0000binary'),
  });
  expect(zip.statusCode).toBe(415);
  expect((await stack.as(admin, { method: 'GET', url: `/api/custom-gpt/${gptId}/files` })).json()).toEqual(before);
  expect(await readdir(join(stack.dataDir, 'objects', ACME, 'knowledge', gptId))).toEqual(stored);
});

test('a PDF without a text layer and a password-protected PDF end failed with the reason', async () => {
  const gpt = await createGpt(stack, admin);
  const scanned = await uploadReady(stack, admin, gpt._id, {
    name: 'scan.pdf',
    type: PDF,
    data: await makePdf(['', '']),
  });
  expect(scanned).toMatchObject({ status: 'failed', error: 'This PDF has no text layer', chunks: 0 });
  const locked = await uploadReady(stack, admin, gpt._id, {
    name: 'locked.pdf',
    type: PDF,
    data: await makePdf(['secret'], { password: true }),
  });
  expect(locked).toMatchObject({ status: 'failed', error: expect.stringContaining('password-protected') });
  const events = await stack.database.query<{ data: { id: string; reason: string } }>(
    "select envelope->'data' as data from chat.outbox where envelope->>'type' = 'knowledge_file.failed'",
  );
  expect(events.map((e) => e.data)).toEqual(
    expect.arrayContaining([expect.objectContaining({ id: scanned._id, reason: 'This PDF has no text layer' })]),
  );
});

// A limit, not an assertion: each file is read in a thread started for it (isolated.ts), about a
// second each on a loaded machine and more than two at a load of 25.
test('retrieval finds the passage on the right page among 100 files', async () => {
  const gpt = await createGpt(stack, admin, { name: 'Library' });
  for (let i = 0; i < 99; i++) {
    const res = await upload(stack, admin, gpt._id, {
      name: `memo-${i}.txt`,
      type: 'text/plain',
      data: Buffer.from(
        `Memo ${i} about quarterly planning, budgets and team offsites.\n\nProject code ${i} covers logistics and hiring.`,
      ),
    });
    expect(res.statusCode).toBe(201);
  }
  const pages = Array.from(
    { length: 5 },
    (_, i) => `Chapter ${i + 1} of the manual about routine planning and budgets.`,
  );
  pages[3] = 'The emergency generator is tested every second Tuesday by the facilities team.';
  const manual = await upload(stack, admin, gpt._id, { name: 'manual.pdf', type: PDF, data: await makePdf(pages) });
  await processed(stack);
  const files = (
    await stack.as(admin, { method: 'GET', url: `/api/custom-gpt/${gpt._id}/files` })
  ).json() as KnowledgeFileDto[];
  expect(files).toHaveLength(100);
  expect(files.every((f) => f.status === 'ready')).toBe(true);

  const conversation = await gptConversation(gpt._id);
  const { done } = await ask(conversation, 'When is the emergency generator tested?');
  expect(done.citations[0]).toMatchObject({
    fileId: (manual.json() as KnowledgeFileDto)._id,
    fileName: 'manual.pdf',
    page: 4,
  });

  // A GPT holds 100 files: the next is refused before anything is stored.
  const more = await upload(stack, admin, gpt._id, {
    name: 'extra.txt',
    type: 'text/plain',
    data: Buffer.from('one too many'),
  });
  expect(more.statusCode).toBe(409);
  expect(await readdir(join(stack.dataDir, 'objects', ACME, 'knowledge', gpt._id))).toHaveLength(100);
}, 480_000);

test('full-text search alone does not know synonyms', async () => {
  const conversation = await gptConversation();
  const { done } = await ask(conversation, 'reimbursement');
  expect(done.citations).toEqual([]);
});

test('with an embeddings model the files are embedded and the rankings fused: a synonym finds the page', async () => {
  const { providerId } = await addChatModel(stack, fake.url, { name: 'fake-chat' });
  await addEmbeddingsModel(stack, providerId, 'emb-a');
  await processed(stack);
  expect(embeddingRequests().every((r) => r.body!.model === 'emb-a')).toBe(true);

  fake.queueReply({ pieces: ['Within 45 days [1].'] });
  const conversation = await gptConversation();
  const { events, done } = await ask(conversation, 'reimbursement');
  expect(events[0]!.data).toMatchObject({ builtIn: false, model: 'fake-chat' });
  expect(done.citations[0]).toMatchObject({ kind: 'file', fileId: handbookId, page: 2, index: 1 });
  const sent = fake.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)!.body!.messages!;
  // The GPT's instructions are its system prompt; the sources follow, numbered, with file and page.
  expect(sent[0]).toEqual({ role: 'system', content: 'You are the Northwind handbook assistant.' });
  expect(sent[1]!.content).toContain(`[1] "handbook.pdf", page 2: ${PAGE_TWO}`);
  const used = await stack.database.query<{ data: { purpose: string; modelId: string; tokens: number } }>(
    "select envelope->'data' as data from chat.outbox where envelope->>'type' = 'embeddings.used'",
  );
  expect(new Set(used.map((u) => u.data.purpose))).toEqual(new Set(['reembed', 'query']));
  expect(used.every((u) => u.data.tokens > 0)).toBe(true);
});

test('a new embeddings model re-embeds in the background while the old vectors keep answering', async () => {
  const providerId = (await stack.database.query<{ id: string }>('select id from chat.ai_providers limit 1'))[0]!.id;
  failing = 'emb-b';
  await addEmbeddingsModel(stack, providerId, 'emb-b');
  await processed(stack);
  // emb-b is the configured model now, but its vectors are not complete: emb-a still answers.
  fake.queueReply({ pieces: ['45 days [1].'] });
  const conversation = await gptConversation();
  const during = await ask(conversation, 'reimbursement');
  expect(during.done.citations[0]).toMatchObject({ fileId: handbookId, page: 2 });
  expect(embeddingRequests().at(-1)!.body!.model).toBe('emb-a');

  failing = null;
  await processed(stack);
  fake.queueReply({ pieces: ['45 days [1].'] });
  const after = await ask(conversation, 'reimbursement');
  expect(after.done.citations[0]).toMatchObject({ fileId: handbookId, page: 2 });
  expect(embeddingRequests().at(-1)!.body!.model).toBe('emb-b');
  const sizes = await stack.database.query<{ model: string; dimension: number }>(
    'select distinct m.name as model, v.dimension from chat.knowledge_vectors v join chat.ai_models m on m.id = v.model_id order by 1',
  );
  expect(sizes).toEqual(expect.arrayContaining([{ model: 'emb-b', dimension: 48 }]));
});

test('deleting a file removes its chunks and vectors and the stored original', async () => {
  const res = await stack.as(admin, { method: 'DELETE', url: `/api/custom-gpt/${gptId}/files/${handbookId}` });
  expect(res.statusCode).toBe(200);
  const left = await stack.database.query<{ n: number }>(
    'select count(*)::int as n from chat.knowledge_chunks where file_id = $1',
    [handbookId],
  );
  expect(left[0]!.n).toBe(0);
  const vectors = await stack.database.query<{ n: number }>(
    'select count(*)::int as n from chat.knowledge_vectors v where not exists (select 1 from chat.knowledge_chunks c where c.id = v.chunk_id)',
  );
  expect(vectors[0]!.n).toBe(0);
  expect(await readdir(join(stack.dataDir, 'objects', ACME, 'knowledge', gptId))).not.toContain(handbookId);
  expect(
    (await stack.as(user, { method: 'GET', url: `/api/custom-gpt/${gptId}/files/${handbookId}` })).statusCode,
  ).toBe(404);
});
