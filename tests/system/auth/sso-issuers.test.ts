import type { TestStack } from '@earshot/kit/testing';
import { authStack, createCompany, createUser } from '../../../services/auth/test/helpers';

// Without SSO_ALLOW_INSECURE_ISSUERS a company's provider must be https:// on a public address:
// these are refused before any request leaves the machine.

let stack: TestStack;
let admin = '';
let companyId = '';

beforeAll(async () => {
  stack = await authStack();
  companyId = await createCompany(stack, { domain: 'strict' });
  admin = await stack.tokenFor(
    'ADMIN',
    companyId,
    await createUser(stack, { email: 'boss@strict.test', role: 'ADMIN', companyId }),
  );
});

afterAll(async () => {
  await stack?.close();
});

test.each([
  ['http://127.0.0.1:9/realms/strict', /https/],
  ['https://127.0.0.1:9/realms/strict', /private or loopback/],
  ['https://10.1.2.3/realms/strict', /private or loopback/],
  ['https://[::1]:9/', /private or loopback/],
  ['https://169.254.169.254/latest', /never reachable/],
])('the issuer %s is refused with 422 naming issuer', async (issuer, reason) => {
  const res = await stack.as(admin, {
    method: 'PUT',
    url: `/api/companies/${companyId}/sso`,
    payload: {
      issuer,
      clientId: 'c',
      clientSecret: 's',
      domains: ['strict.test'],
      required: false,
      defaultRole: 'USER',
    },
  });
  expect(res.statusCode).toBe(422);
  const [detail] = res.json().details as { field: string; message: string }[];
  expect(detail!.field).toBe('body.issuer');
  expect(detail!.message).toMatch(reason);
  expect((await stack.as(admin, { method: 'GET', url: `/api/companies/${companyId}/sso` })).json()).toBeNull();
});

test('bad settings are refused naming the field', async () => {
  const base = {
    issuer: 'https://login.example.com',
    clientId: 'c',
    clientSecret: 's',
    domains: ['strict.test'],
    required: false,
    defaultRole: 'USER',
  };
  for (const [patch, field] of [
    [{ defaultRole: 'HOST_ADMIN' }, 'body.defaultRole'],
    [{ domains: ['not a domain'] }, 'body.domains.0'],
    [{ roleClaim: 'groups', roleMap: { admins: 'HOST_ADMIN' } }, 'body.roleMap.admins'],
    [{ clientId: 'a\u0000b' }, 'body.clientId'],
    [{ issuer: 'https://user:pw@login.example.com' }, 'body.issuer'],
  ] as const) {
    const res = await stack.as(admin, {
      method: 'PUT',
      url: `/api/companies/${companyId}/sso`,
      payload: { ...base, ...patch },
    });
    expect(res.statusCode).toBe(400);
    expect((res.json().details as { field: string }[]).map((d) => d.field)).toContain(field);
  }
});
