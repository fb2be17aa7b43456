import { randomUUID } from 'node:crypto';
import { kitMigrations, migrate } from '@earshot/kit';
import { openTestDatabase } from '@earshot/kit/testing';
import { migrations } from '../src/db/migrations';

test('sealed keys that earlier provider events carried are removed from the outbox', async () => {
  const database = await openTestDatabase();
  try {
    await migrate(database, 'prompt', [...kitMigrations, migrations[0]!]);
    const after = {
      name: 'Old',
      kind: 'openai-compatible',
      baseUrl: 'https://api.example.com/v1',
      enabled: true,
      apiKeyLast4: 'WXYZ',
    };
    const old = {
      type: 'ai_provider.created',
      version: 1,
      data: { id: randomUUID(), before: null, after, apiKeySealed: 'v1:c2VhbGVkLWtleQ==' },
    };
    const other = { type: 'ai_model.deleted', version: 1, data: { id: randomUUID(), before: null, after: null } };
    for (const envelope of [old, other]) {
      await database.query('insert into prompt.outbox (id, topic, key, envelope) values ($1, $2, $3, $4::jsonb)', [
        randomUUID(),
        'earshot.prompt',
        'platform',
        JSON.stringify(envelope),
      ]);
    }

    await migrate(database, 'prompt', [...kitMigrations, ...migrations]);
    const rows = await database.query<{ envelope: typeof old }>('select envelope from prompt.outbox order by seq');
    expect(rows.map((r) => r.envelope)).toEqual([{ ...old, data: { id: old.data.id, before: null, after } }, other]);
  } finally {
    await database.close();
  }
});
