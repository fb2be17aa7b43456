import { randomUUID } from 'node:crypto';
import { createTestStack, type TestStack } from '@earshot/kit/testing';
import type { TranscriptCitationDto } from '@earshot/contracts';
import { promptService } from '@earshot/prompt-service';
import { chatService } from '../src';
import {
  companyCreated,
  createConversation,
  deltas,
  fileUploaded,
  listen,
  publish,
  streamAbout,
  streamReply,
  transcriptCompleted,
} from './helpers';

// In a b2c company each member's recordings are private, in chat too: the search
// assistant never quotes another member's transcript and a conversation cannot be bound to one.
// Members of other company types share their company's recordings; the platform administrator sees all.
const SHOP = randomUUID();
const ACME = randomUUID();
const alice = randomUUID();
const bob = randomUUID();
const aliceFile = randomUUID();
const bobFile = randomUUID();
const acmeFile = randomUUID();
const SALMON = 'The refrigerated lorry delivered frozen salmon to Riga on Tuesday.';

let stack: TestStack;
let base: string;
let aliceToken: string;
let bobToken: string;

beforeAll(async () => {
  stack = await createTestStack([promptService, chatService]);
  base = await listen(stack);
  aliceToken = await stack.tokenFor('USER', SHOP, alice);
  bobToken = await stack.tokenFor('USER', SHOP, bob);
  const acmeUploader = randomUUID();
  await publish(
    stack,
    companyCreated(SHOP, 'b2c'),
    companyCreated(ACME, 'enterprise'),
    fileUploaded(SHOP, bobFile, bob),
    fileUploaded(SHOP, aliceFile, alice),
    fileUploaded(ACME, acmeFile, acmeUploader),
  );
  // Bob's first, then Alice's: hers is the newest recording of the company ("the last call").
  await publish(
    stack,
    ...transcriptCompleted(SHOP, bobFile, 'bob-garden.wav', [
      { speaker: 'Customer', start: 0, end: 4, text: 'My garden fence needs painting before winter.' },
    ]),
  );
  await publish(
    stack,
    ...transcriptCompleted(SHOP, aliceFile, 'alice-shipment.wav', [
      { speaker: 'Customer', start: 0, end: 5, text: SALMON },
    ]),
  );
  await publish(
    stack,
    ...transcriptCompleted(ACME, acmeFile, 'acme-shipment.wav', [
      { speaker: 'Customer', start: 0, end: 5, text: SALMON },
    ]),
  );
}, 60_000);
afterAll(async () => stack.close());

async function ask(token: string, message: string) {
  const reply = await streamReply(base, token, await createConversation(stack, token), { message });
  const done = reply.events.find((e) => e.event === 'done')?.data as { citations: TranscriptCitationDto[] } | undefined;
  return { text: deltas(reply.events).join(''), files: (done?.citations ?? []).map((c) => c.fileId) };
}

test('a b2c member\'s chat quotes only their own recordings: by search, "the last call" or a name', async () => {
  expect((await ask(aliceToken, 'frozen salmon lorry')).files).toEqual([aliceFile]);
  for (const question of [
    'frozen salmon lorry',
    'What was said in the last call?',
    'What happened in alice-shipment.wav?',
  ]) {
    const { text, files } = await ask(bobToken, question);
    expect(files).not.toContain(aliceFile);
    expect(text).not.toContain('Riga');
  }
  expect((await ask(bobToken, 'What was said in the last call?')).files).toEqual([bobFile]);
  // The company's administrator is a member like any other here.
  expect((await ask(await stack.tokenFor('ADMIN', SHOP), 'frozen salmon lorry')).files).toEqual([]);
});

test("a conversation about another b2c member's recording is a 404, for any member; the platform administrator may open it", async () => {
  for (const token of [bobToken, await stack.tokenFor('ADMIN', SHOP)]) {
    expect((await streamAbout(base, token, { fileId: aliceFile, message: 'What was delivered?' })).status).toBe(404);
    expect(
      (await stack.as(token, { method: 'GET', url: `/api/chat/conversationsByAnalysis/${aliceFile}` })).statusCode,
    ).toBe(404);
    expect(
      (await stack.as(token, { method: 'POST', url: '/api/chat/conversations', payload: { fileId: aliceFile } }))
        .statusCode,
    ).toBe(404);
  }
  const own = await streamAbout(base, aliceToken, { fileId: aliceFile, message: 'What was delivered?' });
  expect(own.status).toBe(200);
  expect(
    (
      await stack.as(await stack.tokenFor('HOST_ADMIN', null), {
        method: 'GET',
        url: `/api/chat/conversationsByAnalysis/${aliceFile}`,
      })
    ).statusCode,
  ).toBe(200);
});

test('in an enterprise company members still share their recordings in chat', async () => {
  const colleague = await stack.tokenFor('USER', ACME);
  expect((await ask(colleague, 'frozen salmon lorry')).files).toEqual([acmeFile]);
  expect((await streamAbout(base, colleague, { fileId: acmeFile, message: 'What was delivered?' })).status).toBe(200);
});
