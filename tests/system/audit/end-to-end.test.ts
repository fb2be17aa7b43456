import type { InjectOptions } from 'fastify';
import { CSRF_HEADER } from '@earshot/kit';
import type { AllInOne } from '@earshot/gateway';
import { startApiProduct, type ApiProduct } from '../all-in-one';

// The whole product in one process: signing in, creating a company and creating a user each leave
// an entry in the audit log, which is what the audit service exists to prove.
const ADMIN_EMAIL = 'root@audit-e2e.test';
const ADMIN_PASSWORD = 'audit-e2e-password-1';

let product: ApiProduct;
let earshot: AllInOne;

beforeAll(async () => {
  product = await startApiProduct('audit-e2e', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
  earshot = product.earshot;
}, 120_000);
afterAll(async () => product?.close());

const call = (token: string, options: InjectOptions) =>
  earshot.app.inject({
    ...options,
    headers: { authorization: `Bearer ${token}`, [CSRF_HEADER]: 'XMLHttpRequest', ...(options.headers ?? {}) },
  });

test('a sign-in, a failed sign-in, a new company and a new user are all in /api/audit', async () => {
  const failed = await earshot.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: ADMIN_EMAIL, password: 'not-the-password' },
  });
  expect(failed.statusCode).toBe(401);
  const login = await earshot.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
  });
  expect(login.statusCode).toBe(200);
  const hostId = (login.json() as { user: { _id: string } }).user._id;
  const token = await earshot.signer.sign({ userId: hostId, companyId: null, role: 'HOST_ADMIN', email: ADMIN_EMAIL });

  const company = await call(token, {
    method: 'POST',
    url: '/api/companies',
    payload: { name: 'Audit Co', code: 'AUDIT-CO', domain: 'audit-co', maxUsers: 5 },
  });
  expect(company.statusCode).toBe(201);
  const companyId = (company.json() as { _id: string })._id;
  await earshot.settle();
  const user = await call(token, {
    method: 'POST',
    url: '/api/users/register',
    payload: {
      firstName: 'Ann',
      lastName: 'Auditee',
      email: 'ann@audit-co.test',
      password: 'ann-password-123',
      role: 'USER',
      companyId,
    },
  });
  expect(user.statusCode).toBe(201);
  const userId = (user.json() as { _id: string })._id;
  await earshot.settle();

  const log = await call(token, { method: 'GET', url: '/api/audit?pageSize=200' });
  expect(log.statusCode).toBe(200);
  type Entry = {
    type: string;
    actor: { id: string | null; email?: string };
    target: { type: string; id: string | null };
    companyId: string | null;
    data: Record<string, unknown>;
  };
  const items = (log.json() as { items: Entry[] }).items;

  expect(items.find((e) => e.type === 'user.signed_in')).toMatchObject({ target: { type: 'user', id: hostId } });
  expect(items.find((e) => e.type === 'user.sign_in_failed')).toMatchObject({ data: { email: ADMIN_EMAIL } });
  expect(items.find((e) => e.type === 'company.created')).toMatchObject({
    companyId,
    actor: { id: hostId },
    target: { type: 'company', id: companyId },
  });
  expect(items.find((e) => e.type === 'user.created')).toMatchObject({
    companyId,
    actor: { id: hostId },
    target: { type: 'user', id: userId },
  });
  // No password, in any form, made it into the log.
  for (const secret of [ADMIN_PASSWORD, 'not-the-password', 'ann-password-123']) expect(log.body).not.toContain(secret);
  // Filters work through the gateway too.
  const signIns = await call(token, { method: 'GET', url: `/api/audit?type=user.&companyId=${companyId}` });
  expect((signIns.json() as { items: Entry[] }).items.map((e) => e.type)).toEqual(['user.created']);
}, 120_000);
