import { join } from 'node:path';
import { ACCESS_COOKIE } from '@earshot/kit';
import { createTestStack, type TestStack } from '@earshot/kit/testing';
import { authService } from '@earshot/auth-service';
import { chatService } from '@earshot/chat-service';
import { fileService } from '@earshot/file-service';
import { messagingService } from '@earshot/messaging-service';
import { promptService } from '@earshot/prompt-service';
import { tasksService } from '@earshot/tasks-service';
import { transcriptionService } from '@earshot/transcription-service';
import { webhooksService } from '@earshot/webhooks-service';
import { billingService } from '@earshot/billing-service';
import { tenantService } from '@earshot/tenant-service';
import { filesUnder, uploadRequest, wavHeader } from '../../../services/file/test/helpers';

// Every service that holds a company's data, in one stack (the transcription worker off): feature
// switches enforced by each service, and deleting a company removing its data everywhere.
let stack: TestStack;
let host: string;
const PASSWORD = 'correct horse battery';
const silence = Buffer.concat([wavHeader(32_000), Buffer.alloc(32_000)]);

interface Company {
  id: string;
  domain: string;
  admin: string;
  user: string;
}
const a = {} as Company;
const b = {} as Company;

beforeAll(async () => {
  stack = await createTestStack(
    [
      authService,
      tenantService,
      billingService,
      fileService,
      transcriptionService,
      chatService,
      promptService,
      messagingService,
      tasksService,
      webhooksService,
    ],
    {
      TRANSCRIPTION_WORKER: 'false',
      ADMIN_EMAIL: 'root@platform.test',
      ADMIN_PASSWORD: 'first-start-password',
    },
  );
  host = await stack.tokenFor('HOST_ADMIN', null);
  for (const [company, code] of [
    [a, 'ADM-A'],
    [b, 'ADM-B'],
  ] as const) {
    const res = await stack.as(host, {
      method: 'POST',
      url: '/api/companies',
      payload: { name: code, code, domain: code.toLowerCase() },
    });
    expect(res.statusCode).toBe(201);
    Object.assign(company, { id: res.json()._id, domain: code.toLowerCase() });
    company.admin = await stack.tokenFor('ADMIN', company.id);
    company.user = await stack.tokenFor('USER', company.id);
  }
  await stack.settle();
}, 120_000);
afterAll(async () => stack.close());

const get = (token: string, url: string) => stack.as(token, { method: 'GET', url });
const setFeatures = async (companyId: string, features: Record<string, boolean>) => {
  expect(
    (await stack.as(host, { method: 'PUT', url: `/api/companies/${companyId}/features`, payload: { features } }))
      .statusCode,
  ).toBe(200);
  await stack.settle();
};
const killSwitch = async (key: string, enabled: boolean) => {
  const res = await stack.as(host, { method: 'PUT', url: `/api/features/${key}`, payload: { enabled } });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toMatchObject({ key, enabled });
  await stack.settle();
};
const DISABLED = { message: 'This feature is not enabled for your company', code: 'FEATURE_DISABLED' };

describe('feature switches, enforced by the service that answers the feature', () => {
  test('chat off for company A: its members get 403 FEATURE_DISABLED, company B and the platform administrator do not', async () => {
    expect((await get(a.user, '/api/chat/conversations')).statusCode).toBe(200);
    await setFeatures(a.id, { chat: false });
    const refused = await get(a.user, '/api/chat/conversations');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual(DISABLED);
    // Before the body is read: a post is refused the same way.
    expect((await stack.as(a.admin, { method: 'POST', url: '/api/chat/conversations', payload: {} })).json()).toEqual(
      DISABLED,
    );
    expect((await get(b.user, '/api/chat/conversations')).statusCode).toBe(200);
    expect((await get(host, '/api/chat/conversations')).statusCode).toBe(200);
    expect((await get(a.user, '/api/features/enabled')).json().features).toMatchObject({
      chat: false,
      transcription: true,
      clients: true,
    });
    expect((await get(b.user, '/api/features/enabled')).json().features).toMatchObject({ chat: true });

    await setFeatures(a.id, { chat: true });
    expect((await get(a.user, '/api/chat/conversations')).statusCode).toBe(200);
  });

  test('each gated service enforces its own features: clients (tenant), transcription (file, transcription)', async () => {
    await setFeatures(a.id, { clients: false, transcription: false });
    expect((await get(a.admin, '/api/clients')).json()).toEqual(DISABLED);
    expect((await get(a.user, '/api/files')).json()).toEqual(DISABLED);
    expect((await get(a.user, '/api/transcripts/status')).json()).toEqual(DISABLED);
    expect((await get(b.admin, '/api/clients')).statusCode).toBe(200);
    await setFeatures(a.id, { clients: true, transcription: true });
    expect((await get(a.admin, '/api/clients')).statusCode).toBe(200);
    expect((await get(a.user, '/api/files')).statusCode).toBe(200);
  });

  test('the platform-wide kill switch turns a feature off for every company, whatever its own switch; on again restores each', async () => {
    await setFeatures(a.id, { chat: false });
    await killSwitch('chat', false);
    expect((await get(b.user, '/api/chat/conversations')).json()).toEqual(DISABLED);
    expect((await get(b.user, '/api/features/enabled')).json().features.chat).toBe(false);
    expect((await get(host, '/api/features')).json()).toContainEqual(
      expect.objectContaining({ key: 'chat', enabled: false }),
    );
    // Asking again changes nothing and emits nothing new.
    await killSwitch('chat', false);
    expect(
      (await stack.database.query("select 1 from tenant.outbox where envelope->>'type' = 'feature.platform_switched'"))
        .length,
    ).toBe(1);

    await killSwitch('chat', true);
    expect((await get(b.user, '/api/chat/conversations')).statusCode).toBe(200);
    expect((await get(a.user, '/api/chat/conversations')).statusCode).toBe(403);
    await setFeatures(a.id, { chat: true });
    expect((await get(a.user, '/api/chat/conversations')).statusCode).toBe(200);
  });

  test('only the platform administrator flips a kill switch; an unknown feature is a 400', async () => {
    expect(
      (await stack.as(a.admin, { method: 'PUT', url: '/api/features/chat', payload: { enabled: false } })).statusCode,
    ).toBe(403);
    const unknown = await stack.as(host, { method: 'PUT', url: '/api/features/teleport', payload: { enabled: false } });
    expect(unknown.json()).toMatchObject({ details: [{ field: 'params.key' }] });
  });
});

describe('deleting a company removes its data in every service', () => {
  /** Data in every service for one company; returns what to look for afterwards. */
  async function populate(company: Company, tag: string) {
    const email = `${tag}@admin.test`;
    const registered = await stack.as(host, {
      method: 'POST',
      url: '/api/users/register',
      payload: { email, firstName: 'T', lastName: tag, role: 'USER', companyId: company.id, password: PASSWORD },
    });
    expect(registered.json()).toMatchObject({ _id: expect.any(String) });
    const signIn = await stack.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: PASSWORD, domain: company.domain },
    });
    expect(signIn.json()).toMatchObject({ user: { email } });
    const session = decodeURIComponent(/earshot_at=([^;]+)/.exec(String(signIn.headers['set-cookie']))![1]!);
    expect(ACCESS_COOKIE).toBe('earshot_at');
    // A notice of theirs, as the messaging service writes one (a task reminder).
    await stack.database.query(
      `insert into messaging.notifications (user_id, company_id, kind, title, body) values ($1, $2, 'task_due', $3, $3)`,
      [registered.json()._id, company.id, tag],
    );

    const uploaded = await stack.as(company.user, uploadRequest(silence, `${tag}.wav`));
    expect(uploaded.json()).toMatchObject({ _id: expect.any(String) });
    expect(
      (
        await stack.as(company.user, { method: 'POST', url: '/api/chat/conversations', payload: { title: tag } })
      ).json(),
    ).toMatchObject({ _id: expect.any(String) });
    expect(
      (
        await stack.as(company.admin, { method: 'POST', url: '/api/clients', payload: { name: `Client ${tag}` } })
      ).json(),
    ).toMatchObject({ _id: expect.any(String) });
    const prompt = await stack.as(host, {
      method: 'POST',
      url: '/api/prompts',
      payload: {
        name: `Prompt ${tag}`,
        description: 'd',
        prompt: 'Summarise {{transcript}}',
        type: 'summary',
        expectedFormat: [{ name: 'summary', type: 'string', description: 's' }],
        scope: 'company',
        isGlobal: false,
        companies: [company.id],
      },
    });
    expect(prompt.json()).toMatchObject({ _id: expect.any(String) });
    const pattern = await stack.as(company.admin, {
      method: 'POST',
      url: '/api/analysis/patterns',
      payload: { name: `Pattern ${tag}`, promptIds: [prompt.json()._id] },
    });
    expect(pattern.json()).toMatchObject({ _id: expect.any(String) });
    await stack.settle();
    return { session };
  }

  const counts = async (companyId: string) => {
    const one = async (sql: string) => Number((await stack.database.query<{ n: string }>(sql, [companyId]))[0]!.n);
    return {
      users: await one('select count(*) as n from auth.users where company_id = $1'),
      files: await one('select count(*) as n from file.files where company_id = $1'),
      objects: filesUnder(join(stack.dataDir, 'objects', companyId)).length,
      transcripts: await one('select count(*) as n from transcription.transcripts where company_id = $1'),
      jobs: await one('select count(*) as n from transcription.jobs where company_id = $1'),
      conversations: await one('select count(*) as n from chat.conversations where company_id = $1'),
      clients: await one('select count(*) as n from tenant.clients where company_id = $1'),
      prompts: await one('select count(*) as n from prompt.prompts where $1::uuid = any(companies)'),
      patterns: await one('select count(*) as n from prompt.analysis_patterns where company_id = $1'),
      notifications: await one('select count(*) as n from messaging.notifications where company_id = $1'),
      company: await one('select count(*) as n from tenant.companies where id = $1'),
    };
  };

  test('users (and their sessions), files and stored audio, transcripts and jobs, conversations, clients, company prompts; then the company', async () => {
    const { session } = await populate(a, 'gone');
    await populate(b, 'kept');
    const present = {
      users: 1,
      files: 1,
      objects: 1,
      transcripts: 1,
      jobs: 1,
      conversations: 1,
      clients: 1,
      prompts: 1,
      patterns: 1,
      notifications: 1,
      company: 1,
    };
    expect(await counts(a.id)).toEqual(present);
    const listed = (await get(host, `/api/companies/${a.id}`)).json();
    expect(listed).toMatchObject({ userCount: 1, storageUsed: silence.length, status: 'active', pendingServices: [] });
    expect((await get(session, '/api/users/profile')).statusCode).toBe(200);

    const res = await stack.as(host, { method: 'DELETE', url: `/api/companies/${a.id}` });
    expect(res.statusCode).toBe(202);
    await stack.settle();

    expect(await counts(a.id)).toEqual({
      users: 0,
      files: 0,
      objects: 0,
      transcripts: 0,
      jobs: 0,
      conversations: 0,
      clients: 0,
      prompts: 0,
      patterns: 0,
      notifications: 0,
      company: 0,
    });
    expect((await get(session, '/api/users/profile')).statusCode).toBe(401);
    expect((await get(host, `/api/companies/${a.id}`)).statusCode).toBe(404);
    const reports = await stack.database.query<{ service: string }>(
      "select envelope->'data'->>'service' as service from (select envelope from auth.outbox union all select envelope from tenant.outbox union all select envelope from file.outbox union all select envelope from transcription.outbox union all select envelope from chat.outbox union all select envelope from prompt.outbox union all select envelope from messaging.outbox union all select envelope from tasks.outbox union all select envelope from webhooks.outbox union all select envelope from billing.outbox) o where envelope->>'type' = 'company.data_removed' and envelope->'data'->>'companyId' = $1",
      [a.id],
    );
    expect(reports.map((r) => r.service).sort()).toEqual([
      'auth',
      'billing',
      'chat',
      'file',
      'messaging',
      'prompt',
      'tasks',
      'tenant',
      'transcription',
      'webhooks',
    ]);

    // The other company keeps everything.
    expect(await counts(b.id)).toEqual(present);
    expect((await get(host, `/api/companies/${b.id}`)).json()).toMatchObject({
      userCount: 1,
      storageUsed: silence.length,
    });
  });
});
