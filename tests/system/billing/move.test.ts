import { billingService } from '@earshot/billing-service';
import { kitMigrations, migrate } from '@earshot/kit';
import { createTestStack, openTestDatabase, type TestStack } from '@earshot/kit/testing';
import { tenantService } from '@earshot/tenant-service';
import { MOVED_TABLES } from '../../../services/billing/src/db/migrations';

// An installation from before the billing service (one database user, as all-in-one runs): its
// prices, credits and ledger lived in the tenant schema. Starting the new release must lose none
// of it, and every billing route must answer as it did.
const company = crypto.randomUUID();
const admin = crypto.randomUUID();
const model = crypto.randomUUID();
let stack: TestStack;

beforeAll(async () => {
  const database = await openTestDatabase();
  // The tenant schema as the release before the billing service left it, with a company's rows in it.
  await migrate(database, 'tenant', [
    ...kitMigrations,
    ...tenantService.migrations.filter((m) => m.name !== '0012_billing_moved_to_billing'),
  ]);
  const rows: [string, unknown[]][] = [
    [
      `insert into tenant.companies (id, name, code, domain, type, status, language) values ($1, 'Ancien', 'ANCIEN', 'ancien', 'business', 'active', 'fr')`,
      [company],
    ],
    [
      `insert into tenant.company_members (user_id, company_id, role, monthly_credits) values ($1, $2, 'ADMIN', 40)`,
      [admin, company],
    ],
    [
      `insert into tenant.mail_recipients (user_id, company_id, email, first_name, last_name) values ($1, $2, 'a@ancien.test', 'Aline', 'Ancienne')`,
      [admin, company],
    ],
    [`insert into tenant.credit_accounts (company_id, balance) values ($1, 97.5)`, [company]],
    [
      `insert into tenant.credit_ledger (company_id, kind, amount, reason, created_at) values ($1, 'grant', 100, 'Opening credits', now() - interval '1 minute')`,
      [company],
    ],
    [
      `insert into tenant.credit_ledger (company_id, kind, amount, feature, model, model_id, unit, measured, quantity, unit_price, event_id, user_id)
       values ($1, 'charge', -2.5, 'chat', 'Old model', $2, 'input_1k', 2500, 2.5, 1, 'old-event', $3)`,
      [company, model, admin],
    ],
    [
      `insert into tenant.credit_spend (company_id, user_id, month, credits) values ($1, '', to_char(now() at time zone 'UTC', 'YYYY-MM'), 2.5)`,
      [company],
    ],
    [
      `insert into tenant.priced_models (id, name, label, purpose) values ($1, 'old-model', 'Old model', 'chat')`,
      [model],
    ],
    [
      `insert into tenant.prices (model_id, unit, credits, effective_from, created_by) values ($1, 'input_1k', 1, '2020-01-01T00:00:00Z', $2)`,
      [model, admin],
    ],
    [`update tenant.pricing_settings set currency = 'USD', credit_rate = 0.02`, []],
  ];
  for (const [sql, params] of rows) await database.query(sql, params);
  stack = await createTestStack([tenantService, billingService], { MAIL_WORKER: 'false' }, { database });
}, 60_000);
afterAll(() => stack?.close());

test('the pricing and credit tables move to the billing schema with their rows; the tenant keeps none of them', async () => {
  for (const table of MOVED_TABLES) {
    const [where] = await stack.database.query<{ tenant: string | null; billing: string | null }>(
      'select to_regclass($1)::text as tenant, to_regclass($2)::text as billing',
      [`tenant.${table}`, `billing.${table}`],
    );
    expect([table, where]).toEqual([table, { tenant: null, billing: `billing.${table}` }]);
  }
  expect(await stack.database.query('select role, monthly_credits, first_name from billing.people')).toEqual([
    { role: 'ADMIN', monthly_credits: '40.0000', first_name: 'Aline' },
  ]);
  expect(await stack.database.query('select name, code, status from billing.companies')).toEqual([
    { name: 'Ancien', code: 'ANCIEN', status: 'active' },
  ]);
  expect(
    await stack.database.query(
      `select to_regclass('billing.legacy_people') as people, to_regclass('billing.legacy_companies') as companies`,
    ),
  ).toEqual([{ people: null, companies: null }]);
});

test('what moved still answers: the balance, the ledger, prices, currency, usage with names, and the companies list', async () => {
  const host = await stack.tokenFor('HOST_ADMIN', null);
  const own = await stack.tokenFor('ADMIN', company, admin);
  const credits = (await stack.as(own, { method: 'GET', url: `/api/companies/${company}/credits` })).json();
  expect(credits).toMatchObject({ balance: 97.5, currency: 'USD', ledger: { total: 2 } });
  const usage = (await stack.as(own, { method: 'GET', url: `/api/companies/${company}/usage` })).json();
  expect(usage.byUser).toEqual([{ userId: admin, name: 'Aline Ancienne', credits: 2.5 }]);
  expect((await stack.as(own, { method: 'GET', url: '/api/credits/me' })).json()).toMatchObject({
    monthlyCap: 40,
    companyBalance: 97.5,
  });
  const prices = (await stack.as(host, { method: 'GET', url: '/api/pricing' })).json();
  expect(prices.prices).toEqual(expect.arrayContaining([expect.objectContaining({ modelId: model, credits: 1 })]));
  expect((await stack.as(host, { method: 'GET', url: `/api/companies/${company}` })).json()).toMatchObject({
    balance: 97.5,
  });
  // The account no longer needs a tenant row: a grant for the moved company works as before.
  expect(
    (
      await stack.as(host, {
        method: 'POST',
        url: `/api/companies/${company}/credits`,
        payload: { amount: 2.5, reason: 'After the move' },
      })
    ).json(),
  ).toMatchObject({ balance: 100 });
});
