import { kitMigrations, migrate, type Database } from '@earshot/kit';
import { openTestDatabase } from '@earshot/kit/testing';
import { ALL_SERVICES } from '@earshot/gateway';

// When a bounded context leaves a service (mail and notifications left the tenant service for the
// messaging service, pricing and credits for the billing service), an installation that ran the
// release before keeps its rows: the tables are moved, not recreated. The move must end where a
// new installation starts, or the two drift apart and a later migration written against one breaks
// the other. Here an installation of the release before both moves (the tenant schema with the mail
// and credit tables in it, holding rows) is upgraded to this release and compared with a fresh one:
// the same tables, columns, constraints and indexes in every schema.

/** The first tenant migration of the release that moved mail out: the release before stopped short of it. */
const MAIL_MOVED = '0009_mail_moved_to_messaging';

const tenant = ALL_SERVICES.find((m) => m.name === 'tenant')!;

async function migrateAll(database: Database): Promise<void> {
  // In the order the all-in-one process (and a deployment's start-up) applies them.
  for (const module of ALL_SERVICES) await migrate(database, module.schema, [...kitMigrations, ...module.migrations]);
}

/** Every table's columns, constraints and indexes in the services' schemas, one sorted line each. */
async function catalogue(database: Database): Promise<string[]> {
  const schemas = ALL_SERVICES.map((m) => m.schema);
  const columns = await database.query<{ line: string }>(
    `select table_schema || '.' || table_name || ' column ' || column_name || ' ' || data_type
            || case when is_nullable = 'NO' then ' not null' else '' end
            || coalesce(' default ' || column_default, '')
            || case when is_identity = 'YES' then ' identity' else '' end as line
       from information_schema.columns where table_schema = any($1)`,
    [schemas],
  );
  const constraints = await database.query<{ line: string }>(
    `select n.nspname || '.' || c.relname || ' constraint ' || k.conname || ' ' || pg_get_constraintdef(k.oid) as line
       from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = any($1)`,
    [schemas],
  );
  const indexes = await database.query<{ line: string }>(
    `select schemaname || '.' || tablename || ' index ' || indexdef as line from pg_indexes where schemaname = any($1)`,
    [schemas],
  );
  return [...columns, ...constraints, ...indexes].map((r) => r.line).sort();
}

let fresh: Database;
let upgraded: Database;

beforeAll(async () => {
  [fresh, upgraded] = await Promise.all([openTestDatabase(), openTestDatabase()]);
  await migrateAll(fresh);

  await migrate(upgraded, tenant.schema, [
    ...kitMigrations,
    ...tenant.migrations.filter((m) => m.name.localeCompare(MAIL_MOVED) < 0),
  ]);
  const company = crypto.randomUUID();
  const user = crypto.randomUUID();
  const rows: [string, unknown[]][] = [
    [
      `insert into tenant.companies (id, name, code, domain, type, status, language) values ($1, 'Old', 'OLD', 'old', 'business', 'active', 'en')`,
      [company],
    ],
    [
      `insert into tenant.email_templates (type, language, company_id, subject, html, text) values ('transcript_ready', 'en', $1, 'Ready', '<p>x</p>', 'x')`,
      [company],
    ],
    [
      `insert into tenant.mail_messages (company_id, type, language, to_address, subject) values ($1, 'credits_low', 'en', 'a@old.test', 'Old mail')`,
      [company],
    ],
    [`insert into tenant.mail_preferences (user_id) values ($1)`, [user]],
    [`insert into tenant.mail_recordings (file_id, company_id, name) values ($1, $2, 'old.wav')`, [user, company]],
    [
      `insert into tenant.notifications (user_id, company_id, kind, title, body) values ($1, $2, 'credits_threshold', 'Old', 'Old')`,
      [user, company],
    ],
    [`insert into tenant.credit_accounts (company_id, balance) values ($1, 10)`, [company]],
    [`insert into tenant.credit_ledger (company_id, kind, amount, reason) values ($1, 'grant', 10, 'Old')`, [company]],
  ];
  for (const [sql, params] of rows) await upgraded.query(sql, params);
  await migrateAll(upgraded);
}, 120_000);

afterAll(async () => {
  await Promise.all([fresh?.close(), upgraded?.close()]);
});

test('an installation upgraded from the release before the mail move has the tables a fresh one has', async () => {
  expect(await catalogue(upgraded)).toEqual(await catalogue(fresh));
});

test('the upgrade kept the moved rows', async () => {
  const [counts] = await upgraded.query<Record<string, number>>(
    `select (select count(*) from messaging.email_templates where company_id is not null)::int as templates,
            (select count(*) from messaging.mail_messages)::int as messages,
            (select count(*) from messaging.notifications)::int as notifications`,
  );
  expect(counts).toEqual({ templates: 1, messages: 1, notifications: 1 });
});

test('the upgrade kept the moved credits', async () => {
  const [counts] = await upgraded.query<Record<string, number>>(
    `select (select count(*) from billing.credit_accounts)::int as accounts,
            (select count(*) from billing.credit_ledger)::int as lines,
            (select count(*) from billing.companies)::int as companies`,
  );
  expect(counts).toEqual({ accounts: 1, lines: 1, companies: 1 });
});

test('a fresh installation keeps no credit table in the tenant schema, and billing has the free engine prices', async () => {
  expect(
    await fresh.query(
      `select table_name from information_schema.tables where table_schema = 'tenant' and (table_name like 'credit%' or table_name like 'pric%')`,
    ),
  ).toEqual([]);
  expect(await fresh.query('select engine, credits::int from billing.prices order by engine')).toEqual([
    { engine: 'pocketsphinx', credits: 0 },
    { engine: 'whisper', credits: 0 },
  ]);
});
