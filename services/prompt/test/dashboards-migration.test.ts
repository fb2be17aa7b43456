import { randomUUID } from 'node:crypto';
import { kitMigrations, migrate } from '@earshot/kit';
import { openTestDatabase } from '@earshot/kit/testing';
import { migrations } from '../src/db/migrations';

// 0010 adds the dashboards' sums to a schema that ran 0008 alone: the sums are rebuilt from the
// calls already there, so a database upgraded with calls in it answers as one kept from the start.
test('the sums are rebuilt from the calls a database already had', async () => {
  const database = await openTestDatabase();
  try {
    const before = migrations.filter((m) => m.name < '0010');
    await migrate(database, 'prompt', [...kitMigrations, ...before]);
    const company = randomUUID();
    const agent = randomUUID();
    const client = randomUUID();
    const call = (
      day: string,
      seconds: number | null,
      agentTalk: number | null,
      customerTalk: number | null,
      tags: string[],
    ) =>
      database.query(
        `insert into prompt.dashboard_calls (file_id, company_id, file_name, at, day, seconds, uploaded_by, agent_id, client_id, tags, agent_talk, customer_talk, talk, silence, "overlaps", words)
       values ($1, $2, 'c.wav', $3::date + time '10:00', $3, $4, $5, $5, $6, $7, $8, $9, 50, 10, 1, 100)`,
        [randomUUID(), company, day, seconds, agent, client, tags, agentTalk, customerTalk],
      );
    await call('2024-03-04', 60, 30, 20, ['vip']);
    await call('2024-03-04', 40, null, null, ['vip', 'billing']);
    // Not transcribed: no part of any sum.
    await call('2024-03-05', null, null, null, ['vip']);

    await migrate(database, 'prompt', [...kitMigrations, ...migrations]);
    const q = (text: string) => database.query<Record<string, unknown>>(text, [company]);
    expect(
      await q(
        'select day::text, calls, seconds, shared_calls, agent_share, silent_calls, measured_calls, "overlaps"::int, words::int, talk from prompt.dashboard_days where company_id = $1',
      ),
    ).toEqual([
      {
        day: '2024-03-04',
        calls: 2,
        seconds: 100,
        shared_calls: 1,
        agent_share: 0.6,
        silent_calls: 2,
        measured_calls: 2,
        overlaps: 2,
        words: 200,
        talk: 100,
      },
    ]);
    expect(await q('select agent_id, calls, seconds from prompt.dashboard_agent_days where company_id = $1')).toEqual([
      { agent_id: agent, calls: 2, seconds: 100 },
    ]);
    expect(
      await q(
        'select month::text, client_id, calls, seconds from prompt.dashboard_client_months where company_id = $1',
      ),
    ).toEqual([{ month: '2024-03-01', client_id: client, calls: 2, seconds: 100 }]);
    expect(
      await q('select tag, calls, seconds from prompt.dashboard_tag_days where company_id = $1 order by tag'),
    ).toEqual([
      { tag: 'billing', calls: 1, seconds: 40 },
      { tag: 'vip', calls: 2, seconds: 100 },
    ]);
  } finally {
    await database.close();
  }
});
