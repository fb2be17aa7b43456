import { is } from 'drizzle-orm';
import { PgTable, getTableConfig } from 'drizzle-orm/pg-core';
import { kitMigrations, migrate, type Database } from '@earshot/kit';
import { openTestDatabase } from '@earshot/kit/testing';
import { ALL_SERVICES } from '@earshot/gateway';
import * as auditSchema from '../services/audit/src/db/schema';
import * as authSchema from '../services/auth/src/db/schema';
import * as billingSchema from '../services/billing/src/db/schema';
import * as chatSchema from '../services/chat/src/db/schema';
import * as fileSchema from '../services/file/src/db/schema';
import * as messagingSchema from '../services/messaging/src/db/schema';
import * as promptSchema from '../services/prompt/src/db/schema';
import * as tasksSchema from '../services/tasks/src/db/schema';
import * as tenantSchema from '../services/tenant/src/db/schema';
import * as transcriptionSchema from '../services/transcription/src/db/schema';
import * as webhooksSchema from '../services/webhooks/src/db/schema';

// One source for each table: the SQL migrations and the Drizzle schema the repositories query
// through must describe the same tables. Every service is migrated on a fresh database (PGlite, and
// PostgreSQL in the postgres project) and information_schema is compared with each Drizzle table,
// column by column: name, nullability and type.

const DRIZZLE: Record<string, Record<string, unknown>> = {
  audit: auditSchema,
  auth: authSchema,
  billing: billingSchema,
  chat: chatSchema,
  file: fileSchema,
  messaging: messagingSchema,
  prompt: promptSchema,
  tasks: tasksSchema,
  tenant: tenantSchema,
  transcription: transcriptionSchema,
  webhooks: webhooksSchema,
};

/** Drizzle's SQL type and information_schema's data_type, brought to one spelling. */
function normalType(type: string): string {
  // Drizzle spells a precise timestamp "timestamp (3) with time zone": the precision goes, one space stays.
  const t = type
    .toLowerCase()
    .replace(/\(.*\)/, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (t.endsWith('[]') || t === 'array') return 'array';
  const aliases: Record<string, string> = {
    bigserial: 'bigint',
    serial: 'integer',
    smallserial: 'smallint',
    int: 'integer',
    int4: 'integer',
    int8: 'bigint',
    varchar: 'character varying',
    timestamp: 'timestamp without time zone',
    timestamptz: 'timestamp with time zone',
    'double precision': 'double precision',
    float8: 'double precision',
    bool: 'boolean',
  };
  return aliases[t] ?? t;
}

interface Column {
  name: string;
  notNull: boolean;
  type: string;
  /** Computed by the database (a search vector): Drizzle may leave it out, since nothing writes it. */
  generated?: boolean;
}

let database: Database;
const actual = new Map<string, Column[]>();

async function columnsOf(schema: string): Promise<Map<string, Column[]>> {
  const rows = await database.query<{
    table_name: string;
    column_name: string;
    is_nullable: string;
    data_type: string;
    is_generated: string;
  }>(
    `select table_name, column_name, is_nullable, data_type, is_generated from information_schema.columns where table_schema = $1 order by table_name, ordinal_position`,
    [schema],
  );
  const tables = new Map<string, Column[]>();
  for (const row of rows) {
    const list = tables.get(row.table_name) ?? [];
    list.push({
      name: row.column_name,
      notNull: row.is_nullable === 'NO',
      type: normalType(row.data_type),
      generated: row.is_generated === 'ALWAYS',
    });
    tables.set(row.table_name, list);
  }
  return tables;
}

beforeAll(async () => {
  database = await openTestDatabase();
  for (const module of ALL_SERVICES) {
    await migrate(database, module.schema, [...kitMigrations, ...module.migrations]);
    for (const [table, columns] of await columnsOf(module.schema)) actual.set(`${module.schema}.${table}`, columns);
  }
}, 120_000);

afterAll(async () => {
  await database?.close();
});

const declared = ALL_SERVICES.flatMap((module) =>
  Object.values(DRIZZLE[module.name] ?? {})
    .filter((value): value is PgTable => is(value, PgTable))
    .map((table) => {
      const config = getTableConfig(table);
      return {
        service: module.name,
        table: `${config.schema ?? 'public'}.${config.name}`,
        columns: config.columns.map((c) => ({ name: c.name, notNull: c.notNull, type: normalType(c.getSQLType()) })),
      };
    }),
);

test('every service has a Drizzle schema to compare', () => {
  expect(Object.keys(DRIZZLE).sort()).toEqual(ALL_SERVICES.map((m) => m.name).sort());
  for (const module of ALL_SERVICES)
    expect(declared.filter((d) => d.service === module.name).length).toBeGreaterThan(0);
});

test.each(declared.map((d) => [d.table, d] as const))(
  '%s: the Drizzle table matches the migrated one',
  (_name, { table, columns }) => {
    const migrated = actual.get(table);
    expect(migrated).toBeDefined();
    const names = new Set(columns.map((c) => c.name));
    const comparable = migrated!
      .filter((c) => !c.generated || names.has(c.name))
      .map(({ name, notNull, type }) => ({ name, notNull, type }));
    const byName = (list: Column[]) =>
      Object.fromEntries([...list].sort((a, b) => a.name.localeCompare(b.name)).map((c) => [c.name, c]));
    expect(byName(columns)).toEqual(byName(comparable));
  },
);
