import { eventDefinition, Envelope } from '@earshot/contracts';
import { kitMigrations, migrate, type Database } from '@earshot/kit';
import { openTestDatabase } from '@earshot/kit/testing';
import { tenantService } from '../src';

// An installation upgraded to the release whose file, tasks and chat services keep each company's
// redaction mode: the tenant announces once more the policies of every company whose redaction was
// already on, unchanged, so those services learn it without waiting for the next change.

const ANNOUNCE = '0012_announce_redaction_policies';
let database: Database;

beforeAll(async () => {
  database = await openTestDatabase();
}, 120_000);
afterAll(async () => database?.close());

test('the upgrade announces each redacting company’s policies as they are, and no other company', async () => {
  const before = tenantService.migrations.filter((m) => m.name.localeCompare(ANNOUNCE) < 0);
  await migrate(database, 'tenant', [...kitMigrations, ...before]);
  const [redacting, plain] = [crypto.randomUUID(), crypto.randomUUID()];
  for (const [id, code] of [
    [redacting, 'RED'],
    [plain, 'PLAIN'],
  ])
    await database.query(
      `insert into tenant.companies (id, name, code, domain, type, status, language, encryption)
       values ($1, $2, $2, lower($2), 'business', 'active', 'en', $3)`,
      [id, code, id === redacting],
    );
  await database.query(
    `insert into tenant.company_policies (company_id, redaction, keep_original, recordings_days, chats_days, audit_days)
     values ($1, 'text_audio', true, 30, null, 400), ($2, 'off', false, null, null, null)`,
    [redacting, plain],
  );

  await migrate(database, 'tenant', [...kitMigrations, ...tenantService.migrations]);
  const rows = await database.query<{ topic: string; key: string; envelope: unknown }>(
    `select topic, key, envelope from tenant.outbox where published_at is null`,
  );
  expect(rows).toHaveLength(1);
  const [row] = rows;
  expect(row).toMatchObject({ topic: 'earshot.tenant', key: redacting });
  // A valid envelope of the event's current version, as a consumer parses it.
  const envelope = Envelope.parse(row!.envelope);
  expect(envelope).toMatchObject({ type: 'company.policies_changed', companyId: redacting, actor: { type: 'system' } });
  const policies = {
    redaction: 'text_audio',
    keepOriginal: true,
    encryption: true,
    retention: { recordingsDays: 30, chatsDays: null, auditDays: 400 },
  };
  expect(eventDefinition('company.policies_changed').data.parse(envelope.data)).toEqual({
    id: redacting,
    before: policies,
    after: policies,
  });
});
