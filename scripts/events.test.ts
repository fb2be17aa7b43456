import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { buildEnvelope, defineService, on, type Database } from '@earshot/kit';
import { openTestDatabase } from '@earshot/kit/testing';
import { runEventsCommand } from './events';

// The operator's command against a service whose handler failed until a fix was deployed.
const applied: string[] = [];
const service = defineService({
  name: 'ops',
  schema: 'ops_test',
  prefixes: [],
  migrations: [],
  async routes() {},
  subscriptions: () => [on('user.signed_out', async (event) => void applied.push(event.data.id))],
});

let database: Database;
let dataDir: string;
let lines: string[];
const run = async (...argv: string[]) => {
  lines = [];
  return runEventsCommand(argv, {
    database,
    modules: [service],
    env: { DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
    print: (l) => void lines.push(l),
  });
};

beforeAll(async () => {
  database = await openTestDatabase();
  dataDir = mkdtempSync(join(tmpdir(), 'earshot-events-'));
});
afterAll(async () => {
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
});

test('parked lists what the consumer parked; replay applies it and empties the table', async () => {
  expect(await run('parked')).toBe(0);
  expect(lines).toEqual(['No parked events.']);
  const envelope = buildEnvelope({
    type: 'user.signed_out',
    companyId: null,
    actor: { type: 'system', id: null },
    data: { id: 'u-1' },
  });
  await database.db
    .execute(sql`insert into ops_test.parked_events (consumer, event_id, type, envelope, attempts, error, parked_at)
    values ('ops', ${envelope.id}, ${envelope.type}, ${JSON.stringify(envelope)}::jsonb, 5, 'database was down', now())`);

  expect(await run('parked', '--service', 'ops')).toBe(0);
  expect(lines).toEqual([
    expect.stringMatching(new RegExp(`^${envelope.id}  ops  user.signed_out  attempts=5 .* error=database was down$`)),
  ]);
  expect(await run('replay', envelope.id)).toBe(0);
  expect(lines).toEqual([`replayed ${envelope.id} (ops)`]);
  expect(applied).toEqual(['u-1']);
  expect(await run('replay', '--all')).toBe(0);
  expect(lines).toEqual(['No parked events.']);
  expect(applied).toEqual(['u-1']);
});

test('bad usage and unknown services are refused with a hint', async () => {
  expect(await run('replay')).toBe(2);
  expect(lines[0]).toMatch(/^usage:/);
  expect(await run('parked', '--service', 'nope')).toBe(2);
  expect(lines[0]).toMatch(/unknown service "nope" \(one of: ops\)/);
});
