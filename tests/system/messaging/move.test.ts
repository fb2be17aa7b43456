import { topicOf } from '@earshot/contracts';
import { buildEnvelope, kitMigrations, migrate } from '@earshot/kit';
import { createTestStack, openTestDatabase, type TestStack } from '@earshot/kit/testing';
import { tenantService } from '@earshot/tenant-service';
import { MOVED_TABLES } from '../../../services/messaging/src/db/migrations';
import { messagingService } from '@earshot/messaging-service';

// An installation from before the messaging service (one database user, as all-in-one runs): its
// mail and notifications lived in the tenant schema. Starting the new release must lose none of it.
const company = crypto.randomUUID();
const admin = crypto.randomUUID();
const fileId = crypto.randomUUID();
let stack: TestStack;

beforeAll(async () => {
  const database = await openTestDatabase();
  // The tenant schema as the release before the messaging service left it, with a company's rows in it.
  await migrate(database, 'tenant', [
    ...kitMigrations,
    ...tenantService.migrations.filter((m) => m.name !== '0009_mail_moved_to_messaging'),
  ]);
  const rows: [string, unknown[]][] = [
    [
      `insert into tenant.companies (id, name, code, domain, type, status, language, logo, theme) values ($1, 'Vieux', 'VIEUX', 'vieux', 'business', 'active', 'fr', '/uploads/branding/v.png', '{"primary":"#aa0000"}')`,
      [company],
    ],
    [`insert into tenant.company_members (user_id, company_id, role) values ($1, $2, 'ADMIN')`, [admin, company]],
    [
      `insert into tenant.mail_recipients (user_id, company_id, email, first_name, last_name) values ($1, $2, 'anne@vieux.test', 'Anne', 'Ancienne')`,
      [admin, company],
    ],
    [
      `insert into tenant.email_templates (type, language, company_id, subject, html, text) values ('transcript_ready', 'fr', $1, 'Prêt : {{recording.name}}', '<p>{{link}}</p>', '{{link}}')`,
      [company],
    ],
    [
      `insert into tenant.mail_messages (company_id, type, language, to_address, subject, status, sent_at) values ($1, 'credits_low', 'fr', 'anne@vieux.test', 'Old mail', 'sent', now())`,
      [company],
    ],
    [`insert into tenant.mail_preferences (user_id, transcript_ready) values ($1, true)`, [admin]],
    [
      `insert into tenant.mail_recordings (file_id, company_id, uploaded_by, name) values ($1, $2, $3, 'old-call.wav')`,
      [fileId, company, admin],
    ],
    [
      `insert into tenant.notifications (user_id, company_id, kind, title, body, link) values ($1, $2, 'credits_threshold', 'Old alert', 'Old body', '/invoice')`,
      [admin, company],
    ],
  ];
  for (const [sql, params] of rows) await database.query(sql, params);
  stack = await createTestStack([tenantService, messagingService], { MAIL_WORKER: 'false' }, { database });
}, 60_000);
afterAll(() => stack?.close());

test('the mail and notification tables move to the messaging schema with their rows; the tenant keeps none of them', async () => {
  for (const table of MOVED_TABLES) {
    const [where] = await stack.database.query<{ tenant: string | null; messaging: string | null }>(
      'select to_regclass($1)::text as tenant, to_regclass($2)::text as messaging',
      [`tenant.${table}`, `messaging.${table}`],
    );
    expect([table, where]).toEqual([table, { tenant: null, messaging: `messaging.${table}` }]);
  }
  // The tenant still names people on its usage statement.
  expect(await stack.database.query('select first_name from tenant.mail_recipients')).toEqual([{ first_name: 'Anne' }]);
  expect(await stack.database.query('select role, email, first_name from messaging.people')).toEqual([
    { role: 'ADMIN', email: 'anne@vieux.test', first_name: 'Anne' },
  ]);
  expect(await stack.database.query('select name, language, domain, logo from messaging.companies')).toEqual([
    { name: 'Vieux', language: 'fr', domain: 'vieux', logo: '/uploads/branding/v.png' },
  ]);
  expect(
    await stack.database.query(
      `select to_regclass('messaging.legacy_people') as people, to_regclass('messaging.legacy_companies') as companies`,
    ),
  ).toEqual([{ people: null, companies: null }]);
});

test('what moved still works: the person’s notifications, choices and mail, the company’s own template, the read models', async () => {
  const token = await stack.tokenFor('ADMIN', company, admin);
  const host = await stack.tokenFor('HOST_ADMIN', null);
  expect((await stack.as(token, { method: 'GET', url: '/api/notifications' })).json().items).toEqual([
    expect.objectContaining({ title: 'Old alert', link: '/invoice' }),
  ]);
  expect((await stack.as(token, { method: 'GET', url: '/api/email/preferences' })).json()).toEqual({
    transcriptReady: true,
    transcriptionFailed: false,
  });
  const outbox = (await stack.as(host, { method: 'GET', url: '/api/email/outbox' })).json();
  // No SMTP_URL here: mail is written to files, so "set up mail" stays to do.
  expect(outbox.smtp).toBe(false);
  expect(outbox.items).toEqual([expect.objectContaining({ subject: 'Old mail', status: 'sent' })]);
  const overrides = (await stack.as(host, { method: 'GET', url: `/api/email?companyId=${company}` })).json();
  expect(overrides).toEqual([
    expect.objectContaining({ type: 'transcript_ready', language: 'fr', subject: 'Prêt : {{recording.name}}' }),
  ]);

  // A transcript of the old recording: its uploader (from the moved preferences and the copied
  // people) is mailed with the company's own template, in the company's brand.
  const completed = buildEnvelope({
    type: 'transcript.completed',
    companyId: company,
    actor: { type: 'system', id: null },
    data: {
      id: crypto.randomUUID(),
      fileId,
      engine: 'pocketsphinx',
      duration: 3,
      speakers: 1,
      words: 4,
      fileName: 'old-call.wav',
      parts: 0,
    },
  });
  await stack.bus.publish([{ topic: topicOf('transcript.completed'), key: company, envelope: completed }]);
  await stack.settle();
  const mail = await stack.database.query<{ subject: string; to_address: string; user_id: string }>(
    `select subject, to_address, user_id from messaging.mail_messages where type = 'transcript_ready'`,
  );
  expect(mail).toEqual([{ subject: 'Prêt : old-call.wav', to_address: 'anne@vieux.test', user_id: admin }]);
  // The company's ADMIN (known from the copy of the tenant's members) is told of its budget in French.
  const threshold = buildEnvelope({
    type: 'credits.threshold_reached',
    companyId: company,
    actor: { type: 'system', id: null },
    data: { scope: 'company', userId: null, threshold: 80, month: '2026-11', spent: 8, limit: 10 },
  });
  await stack.bus.publish([{ topic: topicOf('credits.threshold_reached'), key: company, envelope: threshold }]);
  await stack.settle();
  const inbox = (await stack.as(token, { method: 'GET', url: '/api/inbox?kind=credits_threshold' })).json();
  expect(inbox.items.map((item: { title: string }) => item.title)).toEqual([
    expect.stringMatching(/^80 %/),
    'Old alert',
  ]);
  expect(inbox.items[0].title).not.toBe('80 % of the monthly budget used');
});
