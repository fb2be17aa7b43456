import { randomBytes } from 'node:crypto';
import { SERVICE_ROUTES } from '@earshot/contracts';
import { openDatabase, type Database } from '@earshot/kit';
import { asSuperuser, serviceRoleUrl } from '../../deploy/db-roles';

/** Every service has a database role of its own (deploy/db-roles.sql). */
const SERVICES = SERVICE_ROUTES.map((route) => route.name);

/**
 * A database of its own on the test server, with a password for each service's role: the
 * installation the upgrade tests with a role per service start from (roles are server-wide, so
 * each test needs its own database). `close` ends its connections and drops it.
 */
export function roleInstallation(name: string) {
  const url = process.env.DATABASE_URL!;
  const dbName = `earshot_${name}_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const passwords = Object.fromEntries(SERVICES.map((s) => [s, `pw-${s}-${randomBytes(6).toString('hex')}`]));
  const opened: Database[] = [];
  return {
    url,
    dbName,
    passwords,
    create: () => asSuperuser(url, 'postgres', (c) => c.query(`create database ${dbName}`)),
    async asRole(service: string): Promise<Database> {
      const database = await openDatabase({
        url: serviceRoleUrl(url, dbName, service, passwords[service]!),
        poolSize: 1,
      });
      opened.push(database);
      return database;
    },
    async close(): Promise<void> {
      for (const database of opened) await database.close();
      await asSuperuser(url, 'postgres', (c) => c.query(`drop database if exists ${dbName} with (force)`));
    },
  };
}
