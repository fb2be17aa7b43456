import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse, InjectOptions } from 'fastify';
import type { Role } from '@earshot/contracts';
import { ACCESS_COOKIE, CSRF_HEADER } from '@earshot/kit';
import { openTestDatabase } from '@earshot/kit/testing';
import { createAllInOne, type AllInOne } from '../src';

export type CompanyKey = 'A' | 'B';
export const ADMIN_PASSWORD = 'host-admin-password-1';
const USER_PASSWORD = 'password-123';

/** A signed-in person: `token` is the access token their own sign-in through the API gave them. */
export interface Member {
  id: string;
  email: string;
  /** The company domain they sign in with; the platform administrator has none. */
  domain?: string;
  token: string;
}

/** Two companies with one user of each role, plus the platform administrator. */
export interface World {
  earshot: AllInOne;
  dataDir: string;
  /** `apiKey`: the company's API key (X-API-Key) as its creation answered it. */
  companies: Record<CompanyKey, { id: string; domain: string; apiKey: string }>;
  users: Record<CompanyKey, Record<Exclude<Role, 'HOST_ADMIN'>, Member>>;
  host: Member;
  request(token: string | null, options: InjectOptions): Promise<LightMyRequestResponse>;
  /** A request made with a company API key instead of a session. */
  requestWithKey(apiKey: string, options: InjectOptions): Promise<LightMyRequestResponse>;
  /** Signs a member in again through the API: a session of its own (for routes that end one). */
  signInAgain(member: Member): Promise<string>;
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
      // Webhook endpoint fixtures too.
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      // Speech model downloads too: nothing leaves the machine.
      SPEECH_MODELS_URL: 'http://127.0.0.1:9',
      SPEECH_DIARIZATION_URL: 'http://127.0.0.1:9',
      ...env,
    },
  });
  const request = (token: string | null, options: InjectOptions) =>
    earshot.app.inject({
      ...options,
      headers: {
        [CSRF_HEADER]: 'XMLHttpRequest',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(options.headers ?? {}),
      },
    });

  // Every token comes from a real sign-in: the world never signs one itself.
  const signIn = async (email: string, password: string, domain?: string): Promise<Member> => {
    const res = await earshot.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password, ...(domain ? { domain } : {}) },
    });
    const token = res.cookies.find((c) => c.name === ACCESS_COOKIE)?.value;
    if (res.statusCode !== 200 || !token) throw new Error(`sign-in of ${email} failed: ${res.statusCode} ${res.body}`);
    return { id: (res.json() as { user: { _id: string } }).user._id, email, ...(domain ? { domain } : {}), token };
  };
  const host = await signIn('root@earshot.test', ADMIN_PASSWORD);

  const companies = {} as World['companies'];
  const users = {} as World['users'];
  for (const key of ['A', 'B'] as const) {
    const domain = `matrix-${key.toLowerCase()}`;
    const res = await request(host.token, {
      method: 'POST',
      url: '/api/companies',
      payload: {
        name: `Company ${key}`,
        code: `CO-${key}`,
        domain,
        type: 'enterprise',
        status: 'active',
        maxUsers: 100,
        maxStorage: 1024 ** 3,
        language: 'en',
      },
    });
    if (res.statusCode !== 201) throw new Error(`company ${key}: ${res.statusCode} ${res.body}`);
    const created = res.json() as { _id: string; apiKey: string };
    companies[key] = { id: created._id, domain, apiKey: created.apiKey };
  }
  await earshot.settle();
  for (const key of ['A', 'B'] as const) {
    users[key] = {} as World['users'][CompanyKey];
    for (const role of ['ADMIN', 'USER', 'CALLER'] as const) {
      const email = `${role.toLowerCase()}@${companies[key].domain}.test`;
      const res = await request(host.token, {
        method: 'POST',
        url: '/api/users/register',
        payload: { firstName: role, lastName: key, email, password: USER_PASSWORD, role, companyId: companies[key].id },
      });
      if (res.statusCode !== 201) throw new Error(`user ${email}: ${res.statusCode} ${res.body}`);
      users[key][role] = await signIn(email, USER_PASSWORD, companies[key].domain);
    }
  }
  return {
    earshot,
    dataDir,
    companies,
    users,
    host,
    request,
    requestWithKey: (apiKey, options) =>
      earshot.app.inject({ ...options, headers: { 'x-api-key': apiKey, ...(options.headers ?? {}) } }),
    async signInAgain(member) {
      return (await signIn(member.email, member.domain ? USER_PASSWORD : ADMIN_PASSWORD, member.domain)).token;
    },
    async close() {
      await earshot.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
