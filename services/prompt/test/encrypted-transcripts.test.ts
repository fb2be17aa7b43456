import { randomBytes, randomUUID } from 'node:crypto';
import { buildEnvelope, KeyUnavailableError, type ServiceContext } from '@earshot/kit';
import type { AnalysisRunDto, CallMetricsDto, Envelope } from '@earshot/contracts';
import {
  createTestStack,
  serveUnmeteredCredits,
  withoutEncryptionPassTimer,
  type TestStack,
} from '@earshot/kit/testing';
import { startFakeOpenAI, type FakeOpenAI } from '@earshot/ai/testing';
import { promptService } from '../src';
import type { PromptConfig } from '../src/config';
import { encryptionOf } from '../src/services/encryption';
import { addChatModel, deliver, recording, runsDone, type Line } from './analysis-helpers';

// Encryption at rest of the prompt service's transcript copy, in real PostgreSQL: a
// company with encryption on keeps no word of its calls readable in the prompt schema, analyses
// and call analytics still get the text, a plain company is unchanged, turning it on seals what
// was there, and deleting the company leaves a copied value that nothing can open.

const MASTER = randomBytes(32).toString('hex');
const ACME = randomUUID();
const PLAIN = randomUUID();
const hostActor = { type: 'user' as const, id: randomUUID(), role: 'HOST_ADMIN' as const, email: 'host@earshot.test' };

const OLD_CALL: Line[] = [
  { speaker: 'Agent', start: 0, end: 4, text: 'Hello, the pelican invoice is ready' },
  { speaker: 'Customer', start: 4.5, end: 9, text: 'Please send the marzipan order today' },
];
const NEW_CALL: Line[] = [
  { speaker: 'Agent', start: 0, end: 4, text: 'The flamingo shipment leaves Thursday' },
  { speaker: 'Customer', start: 4.5, end: 9, text: 'Then the walrus crate can wait' },
];
const WORDS = ['pelican', 'marzipan', 'flamingo', 'shipment', 'walrus'];

let stack: TestStack;
let fake: FakeOpenAI;
let ctx: ServiceContext<PromptConfig>;
let host: string;
let admin: string;
let promptId: string;
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
      envelope: buildEnvelope({ type, companyId, actor: hostActor, data } as never),
    },
  ]);
  await stack.settle();
}

/** Every table of the prompt schema whose rows, as text, hold one of `words`. */
async function plainTables(words: readonly string[]): Promise<string[]> {
  const tables = await stack.database.query<{ name: string }>(
    "select table_name as name from information_schema.tables where table_schema = 'prompt' and table_type = 'BASE TABLE'",
  );
  const found: string[] = [];
  for (const { name } of tables) {
    const [row] = await stack.database.query<{ text: string | null }>(
      `select lower(string_agg(t::text, ' ')) as text from prompt."${name}" t`,
    );
    if (words.some((w) => row?.text?.includes(w))) found.push(name);
  }
  return found;
}

const lastPrompt = () =>
  JSON.stringify(fake.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)!.body!.messages);

async function analyse(token: string, fileId: string): Promise<AnalysisRunDto> {
  const started = await stack.as(token, {
    method: 'POST',
    url: '/api/analysis/transcripts',
    payload: { fileId, promptId },
  });
  expect(started.statusCode).toBe(202);
  await runsDone(stack);
  const runs = (
    await stack.as(token, { method: 'GET', url: `/api/analysis/transcripts?fileId=${fileId}` })
  ).json() as AnalysisRunDto[];
  return runs[0]!;
}

beforeAll(async () => {
  fake = await startFakeOpenAI();
  // The tests run the background pass themselves, between looking at a company before and after it.
  stack = await withoutEncryptionPassTimer(() =>
    createTestStack([promptService], { AI_ALLOW_PRIVATE_URLS: 'true', ENCRYPTION_MASTER_KEY: MASTER }),
  );
  serveUnmeteredCredits(stack.database);
  ctx = stack.running.contexts.get('prompt') as ServiceContext<PromptConfig>;
  await stack.bus.subscribe({
    group: 'prompt-encryption-observer',
    topics: ['earshot.keys'],
    handle: async (e) => void seen.push(e),
  });
  host = await stack.tokenFor('HOST_ADMIN', null);
  admin = await stack.tokenFor('ADMIN', ACME);
  await addChatModel(stack, host, fake.url);
  const created = await stack.as(host, {
    method: 'POST',
    url: '/api/prompts',
    payload: {
      name: 'Summary',
      prompt: 'Summarise this call:\n{{transcript}}',
      type: 'transcriptAnalysis',
      expectedFormat: [{ name: 'summary', type: 'string', description: 'One sentence' }],
      scope: 'global',
      isGlobal: true,
    },
  });
  expect(created.statusCode).toBe(201);
  promptId = created.json()._id;
  fake.setReply({ pieces: [JSON.stringify({ summary: 'A call.' })] });
}, 60_000);
afterAll(async () => {
  await stack.close();
  await fake.close();
});

let oldFile: string;
let newFile: string;

test('turning encryption on seals new transcripts at once and, in the background, the ones there before', async () => {
  const old = recording(ACME, OLD_CALL);
  oldFile = old.fileId;
  await deliver(stack, ...old.envelopes);
  expect(await plainTables(['pelican'])).toEqual(['transcript_segments']);

  await tenantEvent(ACME, 'company.policies_changed', { id: ACME, before: policies(false), after: policies(true) });
  expect(await encryptionOf(ctx).progress(ACME)).toMatchObject({ state: 'running' });
  const fresh = recording(ACME, NEW_CALL);
  newFile = fresh.fileId;
  await deliver(stack, ...fresh.envelopes);
  expect(await plainTables(['flamingo', 'walrus'])).toEqual([]);

  await encryptionOf(ctx).encryptExisting();
  await stack.settle();
  expect(await encryptionOf(ctx).progress(ACME)).toEqual({ state: 'done', done: 2, total: 2 });
  expect(
    seen.filter((e) => e.type === 'company.encryption_progressed' && e.data.service === 'prompt').map((e) => e.data),
  ).toEqual([
    { companyId: ACME, service: 'prompt', done: 0, total: 2, state: 'running' },
    { companyId: ACME, service: 'prompt', done: 2, total: 2, state: 'done' },
  ]);
  expect(await plainTables(WORDS)).toEqual([]);
  // Run again: nothing left to seal.
  await encryptionOf(ctx).encryptExisting();
  expect(await plainTables(WORDS)).toEqual([]);
});

test('an analysis still receives the text, and call analytics still count its words', async () => {
  for (const [fileId, call] of [
    [newFile, NEW_CALL],
    [oldFile, OLD_CALL],
  ] as const) {
    const run = await analyse(admin, fileId);
    expect(run.status).toBe('completed');
    for (const line of call) expect(lastPrompt()).toContain(line.text);
    expect(lastPrompt()).not.toContain('ef1.');
  }
  const metrics = (
    await stack.as(admin, { method: 'GET', url: `/api/analysis/transcripts/${newFile}/metrics` })
  ).json() as CallMetricsDto;
  expect(metrics.speakers.map((s) => s.words).sort()).toEqual([5, 6]);
  expect(await plainTables(WORDS)).toEqual([]);
});

test('a company without encryption keeps its copy as before', async () => {
  const plain = recording(PLAIN, [{ speaker: 'Agent', start: 0, end: 2, text: 'The hedgehog garden opens at dawn' }]);
  await deliver(stack, ...plain.envelopes);
  expect(
    await stack.database.query('select text from prompt.transcript_segments where file_id = $1', [plain.fileId]),
  ).toEqual([{ text: 'The hedgehog garden opens at dawn' }]);
  expect(await encryptionOf(ctx).progress(PLAIN)).toEqual({ state: 'idle', done: 0, total: 0 });
});

test("deleting the company destroys prompt's key first: a copied sealed value cannot be opened", async () => {
  const [row] = await stack.database.query<{ text: string }>(
    'select text from prompt.transcript_segments where file_id = $1 limit 1',
    [newFile],
  );
  expect(row!.text.startsWith('ef1.')).toBe(true);
  expect(NEW_CALL.map((l) => l.text)).toContain((await encryptionOf(ctx).sealerOf(ctx.db, ACME)).open(row!.text));

  await tenantEvent(ACME, 'company.deleted', {
    id: ACME,
    before: { name: 'Acme', code: 'ACME', domain: 'acme', status: 'active', maxUsers: 10, maxStorage: null },
    after: null,
  });
  expect(await stack.database.query('select 1 from prompt.company_keys where company_id = $1', [ACME])).toEqual([]);
  expect(await stack.database.query('select 1 from prompt.transcript_segments where file_id = $1', [newFile])).toEqual(
    [],
  );
  expect(seen.find((e) => e.type === 'company.key_destroyed' && e.data.service === 'prompt')?.data).toEqual({
    companyId: ACME,
    service: 'prompt',
    reason: 'company_deleted',
  });
  const sealer = await encryptionOf(ctx).sealerOf(ctx.db, ACME);
  expect(() => sealer.open(row!.text)).toThrow(KeyUnavailableError);
});
