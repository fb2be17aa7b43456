import { randomUUID } from 'node:crypto';
import {
  ACTION_ITEMS_PROMPT_ID,
  ANALYSIS_MESSAGES,
  type AnalysisRunDto,
  type Envelope,
  type TaskDto,
} from '@earshot/contracts';
import { buildEnvelope } from '@earshot/kit';
import { createTestStack, serveUnmeteredCredits, type TestStack } from '@earshot/kit/testing';
import { startFakeOpenAI, type FakeOpenAI } from '@earshot/ai/testing';
import { tasksService } from '@earshot/tasks-service';
import { promptService } from '@earshot/prompt-service';
import { addChatModel, deliver, recording, runsDone, type Line } from '../../../services/prompt/test/analysis-helpers';

// The built-in "Action items" analysis end to end: the prompt service runs it against the fake
// provider and announces the items; the tasks service (same stack, same bus) keeps them, and a
// person turns some into tasks.
let stack: TestStack;
let fake: FakeOpenAI;
let host: string;
let agent: string;
const company = randomUUID();
const agentId = randomUUID();
const mariaId = randomUUID();
const seen: Envelope[] = [];

const person = (id: string, firstName: string, lastName: string) =>
  buildEnvelope({
    type: 'user.created',
    companyId: company,
    actor: { type: 'system', id: null },
    data: {
      id,
      before: null,
      after: { email: `${id}@test.local`, firstName, lastName, role: 'USER', companyId: company, status: 'active' },
    },
  });

const CALL: Line[] = [
  { speaker: 'Agent', start: 0, end: 5, text: 'Maria will send you the signed contract by Friday' },
  { speaker: 'Customer', start: 5.5, end: 9, text: 'Good, and someone should check the invoice' },
];

beforeAll(async () => {
  fake = await startFakeOpenAI();
  stack = await createTestStack([promptService, tasksService], { AI_ALLOW_PRIVATE_URLS: 'true' });
  serveUnmeteredCredits(stack.database);
  await stack.bus.subscribe({
    group: 'test-observer',
    topics: ['earshot.prompt'],
    handle: async (e) => void seen.push(e),
  });
  host = await stack.tokenFor('HOST_ADMIN', null);
  agent = await stack.tokenFor('USER', company, agentId);
  await deliver(stack, person(agentId, 'Ann', 'Agent'), person(mariaId, 'Maria', 'Ivanova'));
  await addChatModel(stack, host, fake.url);
}, 60_000);
afterAll(async () => {
  await stack.close();
  await fake.close();
});

const reply = (text: string) => ({
  pieces: [text],
  usage: { prompt_tokens: 50, completion_tokens: 10, total_tokens: 60 },
});

async function runOn(fileId: string): Promise<AnalysisRunDto> {
  const started = await stack.as(agent, {
    method: 'POST',
    url: '/api/analysis/transcripts',
    payload: { fileId, promptId: ACTION_ITEMS_PROMPT_ID },
  });
  expect(started.statusCode).toBe(202);
  await runsDone(stack);
  const runs: AnalysisRunDto[] = (
    await stack.as(agent, { method: 'GET', url: `/api/analysis/transcripts?fileId=${fileId}` })
  ).json();
  return runs.find((r) => r._id === started.json()._id)!;
}

test('the built-in prompt is seeded once, global, and offered to every member', async () => {
  const res = await stack.as(agent, { method: 'GET', url: `/api/prompts/available/${ACTION_ITEMS_PROMPT_ID}` });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toMatchObject({
    name: 'Action items',
    isGlobal: true,
    scope: 'system',
    version: 1,
    expectedFormat: [{ name: 'count', type: 'integer' }],
  });
});

test('a run proposes the items, validated; the tasks service keeps them; chosen ones become tasks with the named member assigned', async () => {
  const call = recording(company, CALL);
  await deliver(stack, ...call.envelopes);
  const items = [
    { title: 'Send the signed contract', owner: 'Maria', due: '2026-11-27' },
    { title: 'Check the invoice', owner: null, due: null },
  ];
  fake.queueReply(reply(JSON.stringify({ items })));
  const run = await runOn(call.fileId);
  expect(run).toMatchObject({
    status: 'completed',
    result: { count: 2 },
    actionItems: items,
    promptName: 'Action items',
  });
  // The provider was asked for the list's schema, not for one value per field.
  const asked = fake.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)!.body as {
    response_format: { json_schema: { schema: { required: string[] } } };
  };
  expect(asked.response_format.json_schema.schema.required).toEqual(['items']);

  const events = seen
    .filter(
      (e) =>
        (e.data as { id?: string; runId?: string }).id === run._id || (e.data as { runId?: string }).runId === run._id,
    )
    .map((e) => e.type);
  expect(events).toEqual(['analysis.completed', 'analysis.action_items_proposed']);
  const proposed = seen.find((e) => e.type === 'analysis.action_items_proposed')!;
  expect(proposed).toMatchObject({ companyId: company, data: { runId: run._id, fileId: call.fileId, items } });
  // Both events left in the transaction that completed the run.
  const [outbox] = await stack.database.query<{ n: number }>(
    "select count(distinct xmin::text)::int n from prompt.outbox where envelope -> 'data' ->> 'id' = $1 or envelope -> 'data' ->> 'runId' = $1",
    [run._id],
  );
  expect(outbox!.n).toBe(1);

  const made = await stack.as(agent, {
    method: 'POST',
    url: `/api/tasks/from-run/${run._id}`,
    payload: { items: [0, 1] },
  });
  expect(made.statusCode).toBe(201);
  const tasks: TaskDto[] = made.json().items;
  expect(tasks.map((t) => [t.title, t.assigneeId, t.dueDate])).toEqual([
    ['Send the signed contract', mariaId, '2026-11-27'],
    ['Check the invoice', null, null],
  ]);
  expect(tasks[0]).toMatchObject({ link: { fileId: call.fileId, seconds: 0 }, createdBy: agentId });
});

test('an answer that is not the list goes down the invalid-answer path: retried once, then failed, and nothing is proposed', async () => {
  const call = recording(company, CALL);
  await deliver(stack, ...call.envelopes);
  fake.queueReply(reply(JSON.stringify({ items: [{ owner: 'Maria' }] })));
  fake.queueReply(reply(JSON.stringify({ count: 1 })));
  const run = await runOn(call.fileId);
  expect(run).toMatchObject({ status: 'failed', result: null, actionItems: null });
  expect(run.error).toContain(ANALYSIS_MESSAGES.invalidAnswer);
  expect(
    seen.some((e) => e.type === 'analysis.action_items_proposed' && (e.data as { runId: string }).runId === run._id),
  ).toBe(false);
  expect(
    (await stack.as(agent, { method: 'POST', url: `/api/tasks/from-run/${run._id}`, payload: { items: [0] } }))
      .statusCode,
  ).toBe(404);
});

describe('the built-in prompt keeps its shape', () => {
  const body = {
    name: 'Action items',
    description: 'Reworded',
    prompt: 'List the follow-ups.\n{{transcript}}',
    type: 'custom',
    expectedFormat: [
      { name: 'count', type: 'integer', range: '0-50', description: 'How many action items the call has' },
    ],
    scope: 'system',
    isGlobal: true,
  };

  test('it cannot be deleted', async () => {
    expect((await stack.as(host, { method: 'DELETE', url: `/api/prompts/${ACTION_ITEMS_PROMPT_ID}` })).statusCode).toBe(
      409,
    );
  });

  test('renaming it, narrowing it to a company or changing its format is refused naming the field', async () => {
    for (const [change, field] of [
      [{ name: 'Mine' }, 'body.name'],
      [{ isGlobal: false, scope: 'company', companies: [company] }, 'body.scope'],
      [{ expectedFormat: [{ name: 'x', type: 'string', description: 'x' }] }, 'body.expectedFormat'],
    ] as const) {
      const res = await stack.as(host, {
        method: 'PUT',
        url: `/api/prompts/${ACTION_ITEMS_PROMPT_ID}`,
        payload: { ...body, ...change },
      });
      expect(res.statusCode).toBe(409);
      expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
    }
  });

  test('its wording may change (a new version); the answer is still the list', async () => {
    const res = await stack.as(host, { method: 'PUT', url: `/api/prompts/${ACTION_ITEMS_PROMPT_ID}`, payload: body });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ version: 2, description: 'Reworded' });
    const call = recording(company, CALL);
    await deliver(stack, ...call.envelopes);
    fake.queueReply(reply(JSON.stringify({ items: [] })));
    expect(await runOn(call.fileId)).toMatchObject({
      status: 'completed',
      promptVersion: 2,
      result: { count: 0 },
      actionItems: [],
    });
  });
});
