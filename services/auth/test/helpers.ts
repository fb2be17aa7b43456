import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import type { LightMyRequestResponse } from 'fastify';
import { buildEnvelope, CSRF_HEADER, secretBox } from '@earshot/kit';
import { cookieHeader, createTestStack, type TestStack } from '@earshot/kit/testing';
import { SYSTEM_ACTOR, type Role } from '@earshot/contracts';
import { authService } from '../src/index';

// Starting PGlite and hashing with argon2id takes a few seconds on a busy machine.
jest.setTimeout(60_000);

export const ADMIN_EMAIL = 'root@platform.test';
export const ADMIN_PASSWORD = 'first-start-password';
export const PASSWORD = 'correct horse battery';

export function authStack(env: Record<string, string> = {}): Promise<TestStack> {
  return createTestStack([authService], { ADMIN_EMAIL, ADMIN_PASSWORD, ...env });
}

export interface CompanyOptions {
  domain: string;
  maxUsers?: number | null;
  status?: string;
  type?: string;
}

function companyState(options: CompanyOptions) {
  return {
    name: options.domain,
    code: options.domain.toUpperCase(),
    domain: options.domain,
    status: options.status ?? 'active',
    maxUsers: options.maxUsers ?? null,
    maxStorage: null,
    type: options.type ?? 'business',
  };
}

/** What the tenant service would announce: auth keeps its projection from these events. */
export async function publishCompany(
  stack: TestStack,
  type: 'company.created' | 'company.updated' | 'company.deleted',
  id: string,
  options: CompanyOptions,
): Promise<void> {
  const state = companyState(options);
  const data = type === 'company.deleted' ? { id, before: state } : { id, after: state };
  const envelope = buildEnvelope({ type, companyId: id, actor: SYSTEM_ACTOR, data });
  await stack.bus.publish([{ topic: 'earshot.tenant', key: id, envelope }]);
  await stack.settle();
}

export async function createCompany(stack: TestStack, options: CompanyOptions): Promise<string> {
  const id = randomUUID();
  await publishCompany(stack, 'company.created', id, options);
  return id;
}

export async function hostToken(stack: TestStack): Promise<string> {
  return stack.tokenFor('HOST_ADMIN', null);
}

export async function registerUser(
  stack: TestStack,
  token: string,
  user: { email: string; role: Role; companyId?: string; password?: string; firstName?: string; lastName?: string },
) {
  const res = await stack.as(token, {
    method: 'POST',
    url: '/api/users/register',
    payload: { firstName: user.firstName ?? 'Test', lastName: user.lastName ?? user.role, password: PASSWORD, ...user },
  });
  return res;
}

export async function createUser(stack: TestStack, user: Parameters<typeof registerUser>[2]): Promise<string> {
  const res = await registerUser(stack, await hostToken(stack), user);
  if (res.statusCode !== 201) throw new Error(`register ${user.email}: ${res.statusCode} ${res.body}`);
  return (res.json() as { _id: string })._id;
}

export function login(
  stack: TestStack,
  body: Record<string, unknown>,
  ip = '10.0.0.1',
): Promise<LightMyRequestResponse> {
  return stack.app.inject({ method: 'POST', url: '/api/auth/login', payload: body, remoteAddress: ip });
}

/** The Set-Cookie line for one cookie name. */
export function setCookieFor(res: LightMyRequestResponse, name: string): string | undefined {
  const raw = res.headers['set-cookie'];
  const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  return list.find((c) => c.startsWith(`${name}=`));
}

export function cookieValue(res: LightMyRequestResponse, name: string): string | undefined {
  const line = setCookieFor(res, name);
  return line ? decodeURIComponent(line.split(';')[0]!.slice(name.length + 1)) : undefined;
}

/** A browser: keeps cookies between requests and sends the CSRF header on state changes. */
export class Browser {
  cookies = '';
  constructor(
    private readonly stack: TestStack,
    readonly ip = '10.0.0.9',
    readonly userAgent?: string,
  ) {}

  async request(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: unknown,
    options: { csrf?: boolean; headers?: Record<string, string> } = {},
  ) {
    const headers: Record<string, string> = { ...options.headers };
    if (this.userAgent) headers['user-agent'] = this.userAgent;
    if (this.cookies) headers.cookie = this.cookies;
    if (options.csrf ?? true) headers[CSRF_HEADER] = 'XMLHttpRequest';
    const res = await this.stack.app.inject({
      method,
      url,
      headers,
      remoteAddress: this.ip,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    this.cookies = cookieHeader(res.headers['set-cookie'], this.cookies);
    return res;
  }

  cookie(name: string): string | undefined {
    const part = this.cookies
      .split(';')
      .map((p) => p.trim())
      .find((p) => p.startsWith(`${name}=`));
    return part ? decodeURIComponent(part.slice(name.length + 1)) : undefined;
  }
}

export async function outboxEvents(
  stack: TestStack,
  type: string,
): Promise<
  { type: string; companyId: string | null; actor: Record<string, unknown>; data: Record<string, unknown> }[]
> {
  const rows = await stack.database.query<{ envelope: unknown }>(
    `select envelope from auth.outbox where envelope->>'type' = $1 order by seq`,
    [type],
  );
  return rows.map((r) => (typeof r.envelope === 'string' ? JSON.parse(r.envelope) : r.envelope) as never);
}

/** The reset links announced for `email`, opened as the mail sender opens them (they ride sealed). */
export async function resetLinks(stack: TestStack, email?: string): Promise<string[]> {
  const box = secretBox(stack.config, 'mail');
  return (await outboxEvents(stack, 'user.password_reset_requested'))
    .filter((e) => email === undefined || e.data.email === email)
    .map((e) => box.open(String(e.data.sealedLink)));
}
