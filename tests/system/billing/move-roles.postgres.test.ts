import { billingService } from '@earshot/billing-service';
import { kitMigrations, migrate } from '@earshot/kit';
import { tenantService } from '@earshot/tenant-service';
import { applyDbRoles, asSuperuser } from '../../../deploy/db-roles';
import { roleInstallation } from '../role-installation';
import { MOVED_TABLES } from '../../../services/billing/src/db/migrations';

// The distributed upgrade (a *.postgres.test.ts: roles are server-wide, PGlite has none): the
// tenant schema of the release before the billing service took over credits belongs to
// earshot_tenant, which the billing service's role cannot touch. deploy/db-roles.sql, run by a
// superuser before the services start, moves the tables; each service then migrates as its own
// role. No row is lost and billing owns them.
const installation = roleInstallation('billing_move');
const { url, dbName, passwords, asRole } = installation;
const company = crypto.randomUUID();
const person = crypto.randomUUID();

beforeAll(async () => {
  await installation.create();
  // The installation as it was: roles applied, the tenant migrated by its own role, rows written.
  await applyDbRoles(url, dbName, passwords);
  const tenant = await asRole('tenant');
  await migrate(tenant, 'tenant', [
    ...kitMigrations,
    ...tenantService.migrations.filter((m) => m.name !== '0012_billing_moved_to_billing'),
  ]);
  await tenant.query(
    `insert into tenant.companies (id, name, code, domain, type, status, language) values ($1, 'Rolled', 'ROLLED', 'rolled', 'business', 'active', 'lv')`,
    [company],
  );
  await tenant.query(
    `insert into tenant.company_members (user_id, company_id, role, monthly_credits) values ($1, $2, 'ADMIN', 12)`,
    [person, company],
  );
  await tenant.query(
    `insert into tenant.mail_recipients (user_id, company_id, email, first_name, last_name) values ($1, $2, 'r@rolled.test', 'Rita', 'Role')`,
    [person, company],
  );
  await tenant.query(`insert into tenant.credit_accounts (company_id, balance) values ($1, 42)`, [company]);
  await tenant.query(
    `insert into tenant.credit_ledger (company_id, kind, amount, reason) values ($1, 'grant', 42, 'Old')`,
    [company],
  );

  // The upgrade: the script again, then each service's migrations as its own role.
  await applyDbRoles(url, dbName, passwords);
  await migrate(tenant, 'tenant', [...kitMigrations, ...tenantService.migrations]);
  await migrate(await asRole('billing'), 'billing', [...kitMigrations, ...billingService.migrations]);
}, 120_000);

afterAll(async () => installation.close());

test('the rows are in the billing schema, owned by its role, and the tenant role keeps no copy', async () => {
  const billing = await asRole('billing');
  expect(await billing.query('select balance::text from billing.credit_accounts')).toEqual([{ balance: '42.0000' }]);
  expect(await billing.query('select reason from billing.credit_ledger')).toEqual([{ reason: 'Old' }]);
  expect(await billing.query('select role, monthly_credits::text, last_name from billing.people')).toEqual([
    { role: 'ADMIN', monthly_credits: '12.0000', last_name: 'Role' },
  ]);
  expect(await billing.query('select name, code from billing.companies')).toEqual([{ name: 'Rolled', code: 'ROLLED' }]);
  const owners = await asSuperuser(url, dbName, (c) =>
    c.query<{ table: string; owner: string }>(
      `select tablename as table, tableowner as owner from pg_tables where schemaname in ('tenant', 'billing') and tablename = any($1) order by 1`,
      [[...MOVED_TABLES, 'legacy_people', 'legacy_companies']],
    ),
  );
  expect(owners.rows).toEqual([...MOVED_TABLES].sort().map((table) => ({ table, owner: 'earshot_billing' })));
  // The billing role still cannot read the tenant's tables, and its own need no tenant row (no foreign key).
  await expect(billing.query('select count(*) from tenant.companies')).rejects.toThrow(/permission denied/);
  await billing.query('insert into billing.credit_accounts (company_id) values ($1)', [crypto.randomUUID()]);
});
