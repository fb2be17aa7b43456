import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';

// deploy/db-roles.sql as compose's db-roles step runs it, for the code that runs it outside
// compose: its test and the distributed suite.

/** `serverUrl` (a superuser's) pointed at `database`, optionally as another role. */
export function databaseUrl(serverUrl: string, database: string, role?: { user: string; password: string }): string {
  const target = new URL(serverUrl);
  target.pathname = `/${database}`;
  if (role) {
    target.username = role.user;
    target.password = role.password;
  }
  return target.toString();
}

/** A service's own login role on `database` (db-roles.sql names it earshot_<service>). */
export const serviceRoleUrl = (serverUrl: string, database: string, service: string, password: string): string =>
  databaseUrl(serverUrl, database, { user: `earshot_${service}`, password });

/** One connection as the superuser to `database` (`options`: the server settings of that session). */
export const asSuperuser = <T>(
  serverUrl: string,
  database: string,
  work: (client: pg.Client) => Promise<T>,
  options = '',
): Promise<T> => connected(databaseUrl(serverUrl, database), work, options);

/**
 * One connection to `url` for `work`, ended after it. Unlike a pool's, a refused query leaves it
 * open: a pool drops the connection a query failed on and opens another for the next.
 */
export async function connected<T>(url: string, work: (client: pg.Client) => Promise<T>, options = ''): Promise<T> {
  const client = new pg.Client({ connectionString: url, options });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Runs db-roles.sql on `database`: a role per service of `passwords`, with that password. */
export async function applyDbRoles(
  serverUrl: string,
  database: string,
  passwords: Record<string, string>,
): Promise<void> {
  const settings = Object.entries(passwords)
    .map(([service, password]) => `-c earshot.password_${service}=${password}`)
    .join(' ');
  await asSuperuser(
    serverUrl,
    database,
    (c) => c.query(readFileSync(join(import.meta.dirname, 'db-roles.sql'), 'utf8')),
    settings,
  );
}
