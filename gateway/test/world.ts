import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse, InjectOptions } from 'fastify';
import type { Role } from '@earshot/contracts';
import { CSRF_HEADER } from '@earshot/kit';
import { openTestDatabase } from '@earshot/kit/testing';
import { createAllInOne, type AllInOne } from '../src';

export type CompanyKey = 'A' | 'B';
export const ADMIN_PASSWORD = 'host-admin-password-1';

/** Two companies with one user of each role, plus the platform administrator. */
export interface World {
  earshot: AllInOne;
  dataDir: string;
  companies: Record<CompanyKey, { id: string; domain: string }>;
  users: Record<CompanyKey, Record<Exclude<Role, 'HOST_ADMIN'>, { id: string; token: string }>>;
  host: { id: string; token: string };
  request(token: string | null, options: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** A short spoken WAV made with espeak-ng (cached per process). */
let speech: Buffer | undefined;
export function spokenWav(): Buffer {
  if (!speech) {
    const dir = mkdtempSync(join(tmpdir(), 'earshot-wav-'));
    const file = join(dir, 'hello.wav');
    execFileSync('espeak-ng', ['-w', file, 'hello world, this is a test call']);
    speech = readFileSync(file);
    rmSync(dir, { recursive: true, force: true });
  }
  return speech;
}

export function multipart(fields: Record<string, string>, file: { name: string; type: string; data: Buffer }) {
  const boundary = `----earshot${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`));
  parts.push(file.data, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export async function createWorld(env: Record<string, string> = {}): Promise<World> {
  const dataDir = mkdtempSync(join(tmpdir(), 'earshot-world-'));
  const database = await openTestDatabase();
  const earshot = await createAllInOne({
    database,
    env: {
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      SEED_DEMO: 'false',
      ADMIN_EMAIL: 'root@earshot.test',
      ADMIN_PASSWORD,
      RATE_LIMIT_MAX: '100000',
      SIGN_IN_RATE_LIMIT_MAX: '100000',
      OUTBOX_POLL_MS: '50',
      // AI provider fixtures point at a closed local port.
      AI_ALLOW_PRIVATE_URLS: 'true',
      ...env,
    },
  });
  const request = (token: string | null, options: InjectOptions) =>
    earshot.app.inject({ ...options, headers: { [CSRF_HEADER]: 'XMLHttpRequest', ...(token ? { authorization: `Bearer ${token}` } : {}), ...(options.headers ?? {}) } });

  const login = await earshot.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'root@earshot.test', password: ADMIN_PASSWORD } });
  if (login.statusCode !== 200) throw new Error(`host admin sign-in failed: ${login.statusCode} ${login.body}`);
  const hostId = (login.json() as { user: { _id: string } }).user._id;
  const host = { id: hostId, token: await earshot.signer.sign({ userId: hostId, companyId: null, role: 'HOST_ADMIN', email: 'root@earshot.test' }) };

  const companies = {} as World['companies'];
  const users = {} as World['users'];
  for (const key of ['A', 'B'] as const) {
    const domain = `matrix-${key.toLowerCase()}`;
    const res = await request(host.token, {
      method: 'POST',
      url: '/api/companies',
      payload: { name: `Company ${key}`, code: `CO-${key}`, domain, type: 'enterprise', status: 'active', maxUsers: 100, maxStorage: 1024 ** 3, language: 'en' },
    });
    if (res.statusCode !== 201) throw new Error(`company ${key}: ${res.statusCode} ${res.body}`);
    companies[key] = { id: (res.json() as { _id: string })._id, domain };
  }
  await earshot.settle();
  for (const key of ['A', 'B'] as const) {
    users[key] = {} as World['users'][CompanyKey];
    for (const role of ['ADMIN', 'USER', 'CALLER'] as const) {
      const email = `${role.toLowerCase()}@${companies[key].domain}.test`;
      const res = await request(host.token, {
        method: 'POST',
        url: '/api/users/register',
        payload: { firstName: role, lastName: key, email, password: 'password-123', role, companyId: companies[key].id },
      });
      if (res.statusCode !== 201) throw new Error(`user ${email}: ${res.statusCode} ${res.body}`);
      const id = (res.json() as { _id: string })._id;
      users[key][role] = { id, token: await earshot.signer.sign({ userId: id, companyId: companies[key].id, role, email }) };
    }
  }
  return {
    earshot,
    dataDir,
    companies,
    users,
    host,
    request,
    async close() {
      await earshot.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
