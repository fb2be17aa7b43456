// `npm run keys -- rotate`: master-key rotation of encryption at rest. Start it with the
// NEW master key as ENCRYPTION_MASTER_KEY (or ENCRYPTION_MASTER_KEY_FILE) and the old one as
// ENCRYPTION_PREVIOUS_MASTER_KEY: every company data key the services hold (each its own
// `company_keys`: file, transcription, chat, prompt) is unwrapped with the old key and wrapped with
// the new one. The data itself is not read or rewritten. Restart the
// services with the new key only, then destroy the old one (that is what makes database backups
// taken before a company's deletion unreadable: see docs/security.md, "Encryption at rest").
// `npm run keys -- status` counts the data keys per master key id.
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import { CompanyKeyRing, masterKeysFrom, type Database, type EncryptionConfig } from '@earshot/kit';
import { fileService } from '../services/file/src';
import { commandConfig, mountOffline } from './offline-services';

/** The schemas whose services keep company data keys; a schema not in this database is skipped. */
const KEY_SCHEMAS = ['file', 'transcription', 'chat', 'prompt'];

export async function runKeysCommand(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; database?: Database; print?: (line: string) => void } = {},
): Promise<number> {
  const print = options.print ?? console.log;
  const [command] = args;
  if (command !== 'rotate' && command !== 'status') {
    print('usage: npm run keys -- rotate | status');
    return 2;
  }
  const config = commandConfig([fileService], options.env ?? process.env);
  const master = masterKeysFrom(config as typeof config & EncryptionConfig);
  const { database, running } = await mountOffline('keys', [fileService], config, options.database);
  try {
    const { db } = running.contexts.get('file')!;
    const schemas: string[] = [];
    for (const schema of KEY_SCHEMAS) {
      const found = (await db.execute(
        sql`select to_regclass(${`${schema}.company_keys`}) is not null as present`,
      )) as unknown as { rows: { present: boolean }[] };
      if (found.rows[0]?.present) schemas.push(schema);
    }
    if (command === 'rotate') {
      let count = 0;
      for (const schema of schemas) count += await new CompanyKeyRing(schema, schema, master).rotate(db);
      print(`Rewrapped ${count} data key(s) under master key ${master.currentId}.`);
      return 0;
    }
    let keys = 0;
    for (const schema of schemas) {
      const rows = (await db.execute(
        sql`select master_key_id, count(*)::int as n from ${sql.identifier(schema)}.company_keys where wrapped_key is not null group by 1 order by 1`,
      )) as unknown as { rows: { master_key_id: string; n: number }[] };
      for (const row of rows.rows)
        print(
          `${schema} ${row.master_key_id}${row.master_key_id === master.currentId ? ' (current)' : ''}: ${row.n} data key(s)`,
        );
      keys += rows.rows.length;
    }
    if (!keys) print('No data keys.');
    return 0;
  } finally {
    await running.stop();
    if (!options.database) await database.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runKeysCommand(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
