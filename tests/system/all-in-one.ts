import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CSRF_HEADER, type Database } from '@earshot/kit';
import { openTestDatabase } from '@earshot/kit/testing';
import { createAllInOne, type AllInOne } from '@earshot/gateway';

export interface ApiProduct {
  earshot: AllInOne;
  database: Database;
  /** The data folder the product keeps its files in (removed by close). */
  dataDir: string;
  close(): Promise<void>;
}

/**
 * The whole product in one process, as `npm start` composes it, on the test database and a fresh
 * data folder. WEB_DIST points at that empty folder because these suites call the API, not the
 * built web app; no demo seed and no ENCRYPTION_MASTER_KEY unless `env` adds them.
 */
export async function startApiProduct(
  name: string,
  admin: { email: string; password: string },
  env: Record<string, string> = {},
): Promise<ApiProduct> {
  const dataDir = mkdtempSync(join(tmpdir(), `earshot-${name}-`));
  const database = await openTestDatabase();
  const earshot = await createAllInOne({
    database,
    env: {
      SEED_DEMO: 'false',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      WEB_DIST: dataDir,
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      OUTBOX_POLL_MS: '50',
      ...env,
    },
  });
  return {
    earshot,
    database,
    dataDir,
    async close() {
      await earshot.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Calls the product's API at `origin` over HTTP as `token`, with a JSON body when one is given. */
export type ApiCall = (token: string, method: string, path: string, body?: unknown) => Promise<Response>;

export const apiCall =
  (origin: string): ApiCall =>
  (token, method, path, body) =>
    fetch(`${origin}/api${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        [CSRF_HEADER]: 'XMLHttpRequest',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

/**
 * Two companies made by the platform administrator (signed in over HTTP at `origin`), each with an
 * ADMIN token signed as the auth service signs one; settled, so every service knows them.
 */
export async function twoCompanies(
  earshot: AllInOne,
  origin: string,
  admin: { email: string; password: string },
  codes: [string, string],
): Promise<{ ids: [string, string]; admins: [string, string]; host: string }> {
  const login = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [CSRF_HEADER]: 'XMLHttpRequest' },
    body: JSON.stringify(admin),
  });
  if (login.status !== 200) throw new Error(`sign in: ${login.status} ${await login.text()}`);
  const hostId = ((await login.json()) as { user: { _id: string } }).user._id;
  const host = await earshot.signer.sign({ userId: hostId, companyId: null, role: 'HOST_ADMIN', email: admin.email });
  const ids = [] as unknown as [string, string];
  for (const code of codes) {
    const body = { name: code, code, domain: code.toLowerCase(), maxUsers: 5 };
    const res = await apiCall(origin)(host, 'POST', '/companies', body);
    if (res.status !== 201) throw new Error(`company ${code}: ${res.status} ${await res.text()}`);
    ids.push(((await res.json()) as { _id: string })._id);
  }
  await earshot.settle();
  const adminOf = (companyId: string, i: number) =>
    earshot.signer.sign({ userId: randomUUID(), companyId, role: 'ADMIN', email: `admin${i}@${codes[i]}.test` });
  return { ids, admins: [await adminOf(ids[0], 0), await adminOf(ids[1], 1)], host };
}
