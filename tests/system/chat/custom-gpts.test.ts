import { randomUUID } from 'node:crypto';
import type { CustomGptDto, CustomGptList, KnowledgeFileDto } from '@earshot/contracts';
import type { FakeOpenAI } from '@earshot/ai/testing';
import { buildEnvelope } from '@earshot/kit';
import type { TestStack } from '@earshot/kit/testing';
import { addChatModel, messagesOf, publish, stackWithFakeProvider, streamReply } from './helpers';
import { createGpt, processed, upload } from './knowledge-fixtures';

const ACME = randomUUID();
const GLOBEX = randomUUID();

let stack: TestStack;
let fake: FakeOpenAI;
let base: string;
let close: () => Promise<void>;
let host: string;
let admin: string;
let adminId: string;
let user: string;
let userId: string;
let colleague: string;
let otherAdmin: string;
let otherUser: string;

beforeAll(async () => {
  // No tenant service in this stack: nothing here is metered. GPT chats reply with the fake provider's model.
  ({ stack, fake, base, close } = await stackWithFakeProvider());
  await addChatModel(stack, fake.url);
  host = await stack.tokenFor('HOST_ADMIN', null);
  adminId = randomUUID();
  admin = await stack.tokenFor('ADMIN', ACME, adminId);
  userId = randomUUID();
  user = await stack.tokenFor('USER', ACME, userId);
  colleague = await stack.tokenFor('USER', ACME);
  otherAdmin = await stack.tokenFor('ADMIN', GLOBEX);
  otherUser = await stack.tokenFor('USER', GLOBEX);
}, 60_000);
afterAll(async () => close());

const dropdownOf = async (token: string) =>
  ((await stack.as(token, { method: 'GET', url: '/api/custom-gpt/dropdown' })).json() as { _id: string }[]).map(
    (g) => g._id,
  );

test('an ADMIN makes, reads, changes, duplicates and deletes their company GPT', async () => {
  const res = await stack.as(admin, {
    method: 'POST',
    url: '/api/custom-gpt',
    payload: {
      name: 'Sales coach',
      description: 'Pricing rules',
      instructions: 'Coach the sales team.',
      starters: ['What is our discount policy?'],
      visibility: 'company',
      searchTranscripts: true,
    },
  });
  expect(res.statusCode).toBe(201);
  const gpt = res.json() as CustomGptDto;
  expect(gpt).toMatchObject({
    name: 'Sales coach',
    description: 'Pricing rules',
    instructions: 'Coach the sales team.',
    modelId: null,
    starters: ['What is our discount policy?'],
    searchTranscripts: true,
    visibility: 'company',
    userIds: [],
    enabled: true,
    scope: 'company',
    companyIds: [],
    companyId: ACME,
    createdBy: adminId,
    fileCount: 0,
    avatar: null,
  });
  const changed = await stack.as(admin, {
    method: 'PUT',
    url: `/api/custom-gpt/${gpt._id}`,
    payload: { description: 'Pricing and discounts', enabled: false },
  });
  expect(changed.json()).toMatchObject({ description: 'Pricing and discounts', enabled: false, name: 'Sales coach' });
  const copy = await stack.as(admin, { method: 'POST', url: `/api/custom-gpt/${gpt._id}/duplicate` });
  expect(copy.statusCode).toBe(201);
  expect(copy.json()).toMatchObject({
    name: 'Sales coach (copy)',
    instructions: 'Coach the sales team.',
    enabled: false,
  });
  const list = (await stack.as(admin, { method: 'GET', url: '/api/custom-gpt?search=coach' })).json() as CustomGptList;
  expect(list.items.map((g) => g.name).sort()).toEqual(['Sales coach', 'Sales coach (copy)']);
  expect((await stack.as(admin, { method: 'DELETE', url: `/api/custom-gpt/${gpt._id}` })).json()).toEqual({
    message: 'Custom GPT deleted',
  });
  expect((await stack.as(admin, { method: 'GET', url: `/api/custom-gpt/${gpt._id}` })).statusCode).toBe(404);
  const events = await stack.database.query<{ type: string; data: string }>(
    "select envelope->>'type' as type, (envelope->'data')::text as data from chat.outbox where envelope->>'type' like 'custom_gpt.%' order by seq",
  );
  expect(events.map((e) => e.type)).toEqual([
    'custom_gpt.created',
    'custom_gpt.updated',
    'custom_gpt.created',
    'custom_gpt.deleted',
  ]);
  // Ids and settings only: never the instructions or descriptions people wrote.
  expect(events.map((e) => e.data).join()).not.toMatch(/Coach the sales|Pricing/);
});

test('bad input names the field', async () => {
  const res = await stack.as(admin, {
    method: 'POST',
    url: '/api/custom-gpt',
    payload: { name: 'x\u0000y', instructions: 'i', visibility: 'company' },
  });
  expect(res.statusCode).toBe(400);
  const users = await stack.as(admin, {
    method: 'POST',
    url: '/api/custom-gpt',
    payload: { name: 'Chosen', instructions: 'i', visibility: 'users' },
  });
  expect(users.statusCode).toBe(400);
  expect(JSON.stringify(users.json())).toContain('userIds');
  const starters = await stack.as(admin, {
    method: 'POST',
    url: '/api/custom-gpt',
    payload: { name: 'S', instructions: 'i', visibility: 'company', starters: Array(7).fill('q') },
  });
  expect(starters.statusCode).toBe(400);
  const companies = await stack.as(admin, {
    method: 'POST',
    url: '/api/custom-gpt',
    payload: { name: 'S', instructions: 'i', visibility: 'company', companyIds: [GLOBEX] },
  });
  expect(companies.statusCode).toBe(400);
  expect(companies.json()).toMatchObject({ details: [{ field: 'body.companyIds' }] });
});

test("another company's GPT and its files are 404 on every route", async () => {
  const gpt = await createGpt(stack, admin);
  const res = await upload(stack, admin, gpt._id, {
    name: 'notes.txt',
    type: 'text/plain',
    data: Buffer.from('Acme internal notes'),
  });
  const fileId = (res.json() as KnowledgeFileDto)._id;
  await processed(stack);
  const calls = [
    { method: 'GET', url: `/api/custom-gpt/${gpt._id}` },
    { method: 'PUT', url: `/api/custom-gpt/${gpt._id}`, payload: { name: 'Taken' } },
    { method: 'DELETE', url: `/api/custom-gpt/${gpt._id}` },
    { method: 'POST', url: `/api/custom-gpt/${gpt._id}/duplicate` },
    { method: 'GET', url: `/api/custom-gpt/${gpt._id}/files` },
    { method: 'GET', url: `/api/custom-gpt/${gpt._id}/files/${fileId}` },
    { method: 'DELETE', url: `/api/custom-gpt/${gpt._id}/files/${fileId}` },
  ] as const;
  for (const call of calls) expect([call.url, (await stack.as(otherAdmin, call)).statusCode]).toEqual([call.url, 404]);
  expect(
    (await upload(stack, otherAdmin, gpt._id, { name: 'x.txt', type: 'text/plain', data: Buffer.from('x') }))
      .statusCode,
  ).toBe(404);
  expect(
    (await stack.as(otherUser, { method: 'GET', url: `/api/custom-gpt/${gpt._id}/files/${fileId}` })).statusCode,
  ).toBe(404);
  expect(
    (await stack.as(otherUser, { method: 'POST', url: '/api/chat/conversations', payload: { customGptId: gpt._id } }))
      .statusCode,
  ).toBe(404);
  expect(await dropdownOf(otherUser)).not.toContain(gpt._id);
  expect((await stack.as(otherAdmin, { method: 'GET', url: '/api/custom-gpt' })).json()).toMatchObject({ total: 0 });
  // Still whole for its own company.
  expect((await stack.as(admin, { method: 'GET', url: `/api/custom-gpt/${gpt._id}` })).json()).toMatchObject({
    fileCount: 1,
  });
});

test('visibility: only me hides it from colleagues, chosen people see it, disabled hides it from all', async () => {
  const mine = await createGpt(stack, admin, { visibility: 'private' });
  const chosen = await createGpt(stack, admin, { visibility: 'users', userIds: [userId] });
  const everyone = await createGpt(stack, admin, { visibility: 'company' });
  const off = await createGpt(stack, admin, { visibility: 'company', enabled: false });
  expect(await dropdownOf(admin)).toEqual(expect.arrayContaining([mine._id, everyone._id]));
  expect(await dropdownOf(user)).toEqual(expect.arrayContaining([chosen._id, everyone._id]));
  expect(await dropdownOf(user)).not.toContain(mine._id);
  expect(await dropdownOf(colleague)).toEqual(expect.arrayContaining([everyone._id]));
  for (const hidden of [mine._id, chosen._id, off._id]) {
    expect(await dropdownOf(colleague)).not.toContain(hidden);
    expect(
      (await stack.as(colleague, { method: 'POST', url: '/api/chat/conversations', payload: { customGptId: hidden } }))
        .statusCode,
    ).toBe(404);
  }
  expect(
    (await stack.as(user, { method: 'POST', url: '/api/chat/conversations', payload: { customGptId: chosen._id } }))
      .statusCode,
  ).toBe(201);
});

test("platform GPTs: offered to every or chosen companies, read-only for a company's ADMIN", async () => {
  const all = await createGpt(stack, host, { name: 'Platform helper' });
  expect(all).toMatchObject({ scope: 'platform', companyId: null, companyIds: [] });
  const chosen = await createGpt(stack, host, { name: 'Globex only', companyIds: [GLOBEX] });
  expect(await dropdownOf(user)).toContain(all._id);
  expect(await dropdownOf(user)).not.toContain(chosen._id);
  expect(await dropdownOf(otherUser)).toEqual(expect.arrayContaining([all._id, chosen._id]));
  expect((await stack.as(admin, { method: 'GET', url: `/api/custom-gpt/${chosen._id}` })).statusCode).toBe(404);
  expect((await stack.as(admin, { method: 'GET', url: `/api/custom-gpt/${all._id}` })).statusCode).toBe(200);
  const edit = await stack.as(admin, {
    method: 'PUT',
    url: `/api/custom-gpt/${all._id}`,
    payload: { name: 'Mine now' },
  });
  expect(edit.statusCode).toBe(403);
  expect((await stack.as(admin, { method: 'DELETE', url: `/api/custom-gpt/${all._id}` })).statusCode).toBe(403);
  expect(
    (await upload(stack, admin, all._id, { name: 'x.txt', type: 'text/plain', data: Buffer.from('x') })).statusCode,
  ).toBe(403);
  // The HOST_ADMIN lists every company's GPTs as well as the platform's.
  const listed = (await stack.as(host, { method: 'GET', url: '/api/custom-gpt?pageSize=200' })).json() as CustomGptList;
  expect(listed.items.some((g) => g.companyId === ACME)).toBe(true);
  // The HOST_ADMIN chats with every platform GPT and no company's, however many companies keep
  // (more than a picker lists, named to sort first).
  await stack.database.query(
    `insert into chat.custom_gpts (id, scope, company_id, name, instructions, visibility, created_by)
     select gen_random_uuid(), 'company', $1::uuid, 'AAA ' || lpad(n::text, 3, '0'), 'i', 'company', $2 from generate_series(1, 501) n`,
    [randomUUID(), randomUUID()],
  );
  const hostDropdown = await dropdownOf(host);
  expect(hostDropdown).toEqual(expect.arrayContaining([all._id, chosen._id]));
  const platformIds = await stack.database.query<{ id: string }>(
    "select id from chat.custom_gpts where scope = 'platform' and enabled and visibility = 'company'",
  );
  expect(hostDropdown.sort()).toEqual(platformIds.map((g) => g.id).sort());
});

test('a file over the size limit is 413 and leaves nothing behind', async () => {
  const gpt = await createGpt(stack, admin);
  const res = await upload(stack, admin, gpt._id, {
    name: 'big.txt',
    type: 'text/plain',
    data: Buffer.alloc(20 * 1024 * 1024 + 10, 'a'),
  });
  expect(res.statusCode).toBe(413);
  expect(res.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  expect((await stack.as(admin, { method: 'GET', url: `/api/custom-gpt/${gpt._id}/files` })).json()).toEqual([]);
});

test('USERs and CALLERs may not manage GPTs', async () => {
  expect(
    (
      await stack.as(user, {
        method: 'POST',
        url: '/api/custom-gpt',
        payload: { name: 'Mine', instructions: 'i', visibility: 'company' },
      })
    ).statusCode,
  ).toBe(403);
  expect((await stack.as(user, { method: 'GET', url: '/api/custom-gpt' })).statusCode).toBe(403);
});

test('a GPT answers with its own chat model while it is configured, else with the default one', async () => {
  const { modelId } = await addChatModel(stack, fake.url, { name: 'gpt-own', isDefault: false });
  const asked = async (gptModelId: string) => {
    const gpt = await createGpt(stack, admin, { modelId: gptModelId });
    const started = await stack.as(user, {
      method: 'POST',
      url: '/api/chat/conversations',
      payload: { customGptId: gpt._id },
    });
    const { events } = await streamReply(base, user, (started.json() as { _id: string })._id, { message: 'Hello?' });
    return [events[0]!.data.model, fake.requests.at(-1)!.body!.model];
  };
  expect(await asked(modelId)).toEqual(['gpt-own', 'gpt-own']);
  expect(await asked(randomUUID())).toEqual(['fake-chat', 'fake-chat']);
});

test('with custom GPTs switched off for a company, its people cannot go on with a GPT conversation started before', async () => {
  const company = randomUUID();
  const gpt = await createGpt(stack, await stack.tokenFor('ADMIN', company));
  const member = await stack.tokenFor('USER', company);
  const started = await stack.as(member, {
    method: 'POST',
    url: '/api/chat/conversations',
    payload: { customGptId: gpt._id },
  });
  const conversationId = (started.json() as { _id: string })._id;
  const first = await streamReply(base, member, conversationId, { message: 'What is our refund policy?' });
  expect(first.events.map((e) => e.event)).toEqual(expect.arrayContaining(['start', 'done']));
  const before = await messagesOf(stack, member, conversationId);
  expect(before).toHaveLength(2);
  const providerCalls = fake.requests.length;
  await publish(
    stack,
    buildEnvelope({
      type: 'company.features_changed',
      companyId: company,
      actor: { type: 'system', id: null },
      data: { id: company, before: { custom_gpts: true }, after: { custom_gpts: false } },
    }),
  );
  for (const body of [{ message: 'And for software?' }, { message: 'What is our refund policy?', regenerate: true }]) {
    const refused = await streamReply(base, member, conversationId, body);
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ code: 'FEATURE_DISABLED' });
  }
  // Refused before the provider was asked or anything was stored (or removed, for a regeneration).
  expect(fake.requests).toHaveLength(providerCalls);
  expect(await messagesOf(stack, member, conversationId)).toEqual(before);
  const replies = await stack.database.query<{ n: number }>(
    "select count(*)::int as n from chat.outbox where envelope->>'type' = 'chat_reply.finished' and envelope->'data'->>'conversationId' = $1",
    [conversationId],
  );
  expect(replies).toEqual([{ n: 1 }]);
});

test('with custom GPTs switched off for a company, its people neither list nor start chats with them', async () => {
  const gpt = await createGpt(stack, admin);
  await publish(
    stack,
    buildEnvelope({
      type: 'company.features_changed',
      companyId: ACME,
      actor: { type: 'system', id: null },
      data: { id: ACME, before: { custom_gpts: true }, after: { custom_gpts: false } },
    }),
  );
  expect((await stack.as(user, { method: 'GET', url: '/api/custom-gpt/dropdown' })).json()).toMatchObject({
    code: 'FEATURE_DISABLED',
  });
  const chat = await stack.as(user, {
    method: 'POST',
    url: '/api/chat/conversations',
    payload: { customGptId: gpt._id },
  });
  expect(chat.statusCode).toBe(403);
  expect(chat.json()).toMatchObject({ code: 'FEATURE_DISABLED' });
  // Plain chat is another feature: it goes on.
  expect((await stack.as(user, { method: 'POST', url: '/api/chat/conversations', payload: {} })).statusCode).toBe(201);
  expect((await stack.as(otherUser, { method: 'GET', url: '/api/custom-gpt/dropdown' })).statusCode).toBe(200);
});
