import { kitMigrations, migrate } from '@earshot/kit';
import { tenantService } from '@earshot/tenant-service';
import { applyDbRoles, asSuperuser } from '../../../deploy/db-roles';
import { roleInstallation } from '../role-installation';
import { messagingService } from '@earshot/messaging-service';
import { MOVED_TABLES } from '../../../services/messaging/src/db/migrations';

// The distributed upgrade (a *.postgres.test.ts: roles are server-wide, PGlite has none): the
// tenant schema of the release before the messaging service took over e-mail belongs to
// earshot_tenant, which the messaging service's role cannot touch. deploy/db-roles.sql, run by a
// superuser before the services start, moves the tables; each service then migrates as its own
// role. No row is lost and messaging owns them.
const installation = roleInstallation('move');
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
    ...tenantService.migrations.filter((m) => m.name !== '0009_mail_moved_to_messaging'),
  ]);
  await tenant.query(
    `insert into tenant.companies (id, name, code, domain, type, status, language) values ($1, 'Rolled', 'ROLLED', 'rolled', 'business', 'active', 'lv')`,
    [company],
  );
  await tenant.query(`insert into tenant.company_members (user_id, company_id, role) values ($1, $2, 'ADMIN')`, [
    person,
    company,
  ]);
  await tenant.query(
    `insert into tenant.mail_recipients (user_id, company_id, email, first_name, last_name) values ($1, $2, 'r@rolled.test', 'Rita', 'Role')`,
    [person, company],
  );
  await tenant.query(
    `insert into tenant.email_templates (type, language, company_id, subject, html, text) values ('invitation', 'lv', $1, 'Sveiki', '<p>{{link}}</p>', '{{link}}')`,
    [company],
  );
  await tenant.query(
    `insert into tenant.notifications (user_id, company_id, kind, title, body) values ($1, $2, 'cap_threshold', 'Old', 'Old')`,
    [person, company],
  );
  await tenant.query(`insert into tenant.mail_preferences (user_id, transcription_failed) values ($1, true)`, [person]);

  // The upgrade: the script again, then each service's migrations as its own role.
  await applyDbRoles(url, dbName, passwords);
  await migrate(tenant, 'tenant', [...kitMigrations, ...tenantService.migrations]);
  await migrate(await asRole('messaging'), 'messaging', [...kitMigrations, ...messagingService.migrations]);
}, 120_000);

afterAll(async () => installation.close());

test('the rows are in the messaging schema, owned by its role, and the tenant role keeps no copy', async () => {
  const messaging = await asRole('messaging');
  expect(await messaging.query('select subject from messaging.email_templates')).toEqual([{ subject: 'Sveiki' }]);
  expect(await messaging.query('select title from messaging.notifications')).toEqual([{ title: 'Old' }]);
  expect(await messaging.query('select transcription_failed from messaging.mail_preferences')).toEqual([
    { transcription_failed: true },
  ]);
  expect(await messaging.query('select role, email from messaging.people')).toEqual([
    { role: 'ADMIN', email: 'r@rolled.test' },
  ]);
  expect(await messaging.query('select name, language from messaging.companies')).toEqual([
    { name: 'Rolled', language: 'lv' },
  ]);
  const owners = await asSuperuser(url, dbName, (c) =>
    c.query<{ table: string; owner: string }>(
      `select tablename as table, tableowner as owner from pg_tables where schemaname in ('tenant', 'messaging') and tablename = any($1) order by 1`,
      [[...MOVED_TABLES, 'legacy_people', 'legacy_companies']],
    ),
  );
  expect(owners.rows).toEqual([...MOVED_TABLES].sort().map((table) => ({ table, owner: 'earshot_messaging' })));
  // The messaging role still cannot read the tenant's tables, and its own need no tenant row (no foreign key).
  await expect(messaging.query('select count(*) from tenant.companies')).rejects.toThrow(/permission denied/);
  await messaging.query(
    `insert into messaging.email_templates (type, language, company_id, subject, html, text) values ('invitation', 'en', $1, 's', 'h', 't')`,
    [crypto.randomUUID()],
  );
});
