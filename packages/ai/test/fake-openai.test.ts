import OpenAI, { APIError } from 'openai';
import { startFakeOpenAI, type FakeOpenAI } from '../src/testing';

// The fake is what every provider test trusts: check it against the official SDK's own parser.
let fake: FakeOpenAI;
let client: OpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI();
  client = new OpenAI({ baseURL: fake.url, apiKey: 'sk-test', maxRetries: 0 });
});
afterAll(async () => fake.close());

test('a stream arrives as the scripted pieces, then usage, and the request is recorded', async () => {
  fake.queueReply({
    pieces: ['One', ' two', ' three'],
    usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 },
  });
  const stream = await client.chat.completions.create({
    model: 'm',
    stream: true,
    stream_options: { include_usage: true },
    messages: [{ role: 'user', content: 'count' }],
  });
  const pieces: string[] = [];
  let usage: unknown = null;
  for await (const chunk of stream) {
    const text = chunk.choices[0]?.delta?.content;
    if (text) pieces.push(text);
    if (chunk.usage) usage = chunk.usage;
  }
  expect(pieces).toEqual(['One', ' two', ' three']);
  expect(usage).toEqual({ prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 });
  const sent = fake.requests.at(-1)!;
  expect(sent.body?.messages).toEqual([{ role: 'user', content: 'count' }]);
  expect(sent.headers.authorization).toBe('Bearer sk-test');
  expect(await sent.closed).toBe(false);
});

test('plain answers, model lists and errors follow the API', async () => {
  fake.queueReply({ pieces: ['Hi', '!'] });
  const answer = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
  expect(answer.choices[0]?.message.content).toBe('Hi!');
  expect(answer.usage?.completion_tokens).toBe(2);
  fake.models = ['a', 'b'];
  expect((await client.models.list()).data.map((m) => m.id)).toEqual(['a', 'b']);

  fake.queueReply({ error: { status: 401, message: 'Incorrect API key provided', code: 'invalid_api_key' } });
  const failed = await client.chat.completions
    .create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })
    .catch((e: unknown) => e);
  expect(failed).toBeInstanceOf(APIError);
  expect((failed as APIError).status).toBe(401);
  expect((failed as APIError).message).toContain('Incorrect API key provided');
});

test('a client that stops a slow stream closes the connection, and the fake sees it', async () => {
  fake.queueReply({ pieces: Array.from({ length: 200 }, (_, i) => `w${i} `), delayMs: 20 });
  const controller = new AbortController();
  const stream = await client.chat.completions.create(
    { model: 'm', stream: true, messages: [{ role: 'user', content: 'long' }] },
    { signal: controller.signal },
  );
  const seen: string[] = [];
  // The SDK ends an aborted stream's iteration quietly rather than throwing.
  for await (const chunk of stream) {
    const text = chunk.choices[0]?.delta?.content;
    if (text) seen.push(text);
    if (seen.length === 3) controller.abort();
  }
  expect(await fake.requests.at(-1)!.closed).toBe(true);
  expect(seen.length).toBeLessThan(200);
});

test('a response_format the fake is told to refuse is a 400 naming it; the others pass', async () => {
  fake.refuseResponseFormats = ['json_schema'];
  const refused = await client.chat.completions
    .create({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
      response_format: { type: 'json_schema', json_schema: { name: 'x', strict: true, schema: { type: 'object' } } },
    })
    .catch((e: unknown) => e);
  expect((refused as APIError).status).toBe(400);
  expect((refused as APIError).message).toContain("response_format.type 'json_schema' is not supported");
  fake.queueReply({ pieces: ['{}'] });
  const passed = await client.chat.completions.create({
    model: 'm',
    messages: [{ role: 'user', content: 'JSON' }],
    response_format: { type: 'json_object' },
  });
  expect(passed.choices[0]?.message.content).toBe('{}');
  fake.refuseResponseFormats = [];
});
