import { randomBytes } from 'node:crypto';
import { CSRF_HEADER } from '@earshot/kit';
import type { AllInOne } from '@earshot/gateway';
import { startApiProduct, type ApiProduct } from '../all-in-one';
import { wavHeader } from '../../../services/file/test/helpers';

// SCIM 2.0 as an identity provider's provisioning client sends it (Okta's and Entra ID's shapes),
// over real HTTP on loopback through the all-in-one gateway: each company's token reaches only its
// own people, and removing someone there ends their Earshot session at once.
const ADMIN_EMAIL = 'root@scim.test';
const ADMIN_PASSWORD = 'scim-root-password-1';
const PERSON_PASSWORD = 'a person password 1';
const SCIM_TYPE = 'application/scim+json';
const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';

let product: ApiProduct;
let earshot: AllInOne;
let origin: string;
let hostToken: string;

interface Company {
  id: string;
  domain: string;
  adminToken: string;
  scimToken: string;
  scimTokenId: string;
}
const companies: Record<'a' | 'b' | 'small', Company> = {
  a: { id: '', domain: '', adminToken: '', scimToken: '', scimTokenId: '' },
  b: { id: '', domain: '', adminToken: '', scimToken: '', scimTokenId: '' },
  small: { id: '', domain: '', adminToken: '', scimToken: '', scimTokenId: '' },
};

/** The fields of the answers these tests read (an answer of another shape fails the expectation on it). */
interface Answer {
  id: string;
  _id: string;
  token: string;
  email: string;
  role: string;
  status: string;
  type: string;
  userName: string;
  active: boolean;
  displayName: string;
  endpoint: string;
  companyId: string;
  lastUsedAt: string;
  message: string;
  detail: string;
  value: string;
  totalResults: number;
  itemsPerPage: number;
  name: { givenName: string };
  target: { id: string };
  details: { field: string }[];
  groups: Answer[];
  members?: Answer[];
  Resources: Answer[];
  items: Answer[];
  actor: Answer;
  after: Answer;
}
type Json = Answer & Answer[];

async function api(method: string, path: string, token: string | null, body?: unknown) {
  const response = await fetch(`${origin}/api${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      [CSRF_HEADER]: 'XMLHttpRequest',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, text, json: (text ? JSON.parse(text) : null) as Json };
}

/** A request as a SCIM client sends it: its own content type, the token as a bearer. */
async function scim(method: string, path: string, token: string | null, body?: unknown) {
  const response = await fetch(`${origin}/api/scim/v2${path}`, {
    method,
    headers: {
      ...(token !== null ? { authorization: `Bearer ${token}` } : {}),
      accept: SCIM_TYPE,
      ...(body === undefined ? {} : { 'content-type': `${SCIM_TYPE}; charset=utf-8` }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    text,
    json: (text ? JSON.parse(text) : null) as Json,
  };
}

const oktaUser = (email: string, given = 'Ada', family = 'Lovelace') => ({
  schemas: [USER_SCHEMA],
  userName: email,
  name: { givenName: given, familyName: family },
  emails: [{ primary: true, value: email, type: 'work' }],
  displayName: `${given} ${family}`,
  locale: 'en-US',
  externalId: `00u${randomBytes(6).toString('hex')}`,
  groups: [],
  password: 'ignored-by-earshot',
  active: true,
});

/** A real session of the person (they are given a password to sign in with): its access-token cookie. */
async function signIn(email: string, domain: string): Promise<string> {
  const response = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [CSRF_HEADER]: 'XMLHttpRequest' },
    body: JSON.stringify({ email, password: PERSON_PASSWORD, domain }),
  });
  expect(response.status).toBe(200);
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith('earshot_at='));
  return cookie!.split(';')[0]!;
}

async function withSession(cookie: string, method: string, path: string) {
  return fetch(`${origin}/api${path}`, { method, headers: { cookie, [CSRF_HEADER]: 'XMLHttpRequest' } });
}

async function provisionWithSession(company: Company, email: string) {
  const created = await scim('POST', '/Users', company.scimToken, oktaUser(email));
  expect(created.status).toBe(201);
  const id = created.json.id;
  expect((await api('PUT', `/users/${id}`, hostToken, { password: PERSON_PASSWORD })).status).toBe(200);
  const cookie = await signIn(email, company.domain);
  expect((await withSession(cookie, 'GET', '/users/profile')).status).toBe(200);
  return { id, cookie };
}

async function makeCompany(key: keyof typeof companies, maxUsers: number) {
  const domain = `scim-${key}-${randomBytes(3).toString('hex')}`;
  const created = await api('POST', '/companies', hostToken, {
    name: `SCIM ${key}`,
    code: domain.toUpperCase(),
    domain,
    maxUsers,
  });
  expect(created.status).toBe(201);
  const company = companies[key];
  company.id = created.json._id;
  company.domain = domain;
  await earshot.settle();
  const admin = await api('POST', '/users/register', hostToken, {
    firstName: 'Company',
    lastName: 'Admin',
    email: `admin@${domain}.test`,
    password: PERSON_PASSWORD,
    role: 'ADMIN',
    companyId: company.id,
  });
  expect(admin.status).toBe(201);
  company.adminToken = await earshot.signer.sign({
    userId: admin.json._id,
    companyId: company.id,
    role: 'ADMIN',
    email: admin.json.email,
  });
  const token = await api('POST', `/companies/${company.id}/scim-tokens`, company.adminToken, { name: 'Okta' });
  expect(token.status).toBe(201);
  company.scimToken = token.json.token;
  company.scimTokenId = token.json.id;
}

beforeAll(async () => {
  product = await startApiProduct('scim', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
  earshot = product.earshot;
  origin = await earshot.app.listen({ host: '127.0.0.1', port: 0 });
  const login = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [CSRF_HEADER]: 'XMLHttpRequest' },
    body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
  });
  const hostId = ((await login.json()) as { user: { _id: string } }).user._id;
  hostToken = await earshot.signer.sign({ userId: hostId, companyId: null, role: 'HOST_ADMIN', email: ADMIN_EMAIL });
  await makeCompany('a', 50);
  await makeCompany('b', 50);
  // The admin and one provisioned person.
  await makeCompany('small', 2);
}, 120_000);
afterAll(async () => product?.close());

describe('SCIM tokens', () => {
  test('shown once at creation, listed with their last use but never the token, revoked into a 401', async () => {
    const { a } = companies;
    const created = await api('POST', `/companies/${a.id}/scim-tokens`, a.adminToken, { name: 'Entra ID' });
    expect(created.status).toBe(201);
    expect(created.json).toEqual({ id: expect.any(String), name: 'Entra ID', token: expect.stringMatching(/^scim_/) });
    const token = created.json.token;

    let list = await api('GET', `/companies/${a.id}/scim-tokens`, a.adminToken);
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(token);
    const listed = () => list.json.find((t) => t._id === created.json.id);
    expect(listed()).toEqual({
      _id: created.json.id,
      name: 'Entra ID',
      createdAt: expect.any(String),
      createdBy: expect.any(String),
      lastUsedAt: null,
    });

    expect((await scim('GET', '/Users?count=1', token)).status).toBe(200);
    list = await api('GET', `/companies/${a.id}/scim-tokens`, a.adminToken);
    expect(Date.parse(listed()?.lastUsedAt ?? '')).not.toBeNaN();

    expect((await api('DELETE', `/companies/${a.id}/scim-tokens/${created.json.id}`, a.adminToken)).status).toBe(204);
    const refused = await scim('GET', '/Users', token);
    expect(refused.status).toBe(401);
    expect(refused.json).toMatchObject({ schemas: [ERROR_SCHEMA], status: '401' });
    list = await api('GET', `/companies/${a.id}/scim-tokens`, a.adminToken);
    expect(listed()).toBeUndefined();
    // Revoking twice is a 404, and so is another company's token.
    expect((await api('DELETE', `/companies/${a.id}/scim-tokens/${created.json.id}`, a.adminToken)).status).toBe(404);
    expect(
      (await api('DELETE', `/companies/${a.id}/scim-tokens/${companies.b.scimTokenId}`, a.adminToken)).status,
    ).toBe(404);

    // Creation and revocation are audited without the token.
    await earshot.settle();
    const audit = await api('GET', `/audit?companyId=${a.id}&type=scim_token.`, hostToken);
    expect(audit.json.items.map((e) => e.type).sort()).toEqual(
      expect.arrayContaining(['scim_token.created', 'scim_token.revoked']),
    );
    expect(audit.text).not.toContain(token);
  });

  test("another company's ADMIN gets 404, a USER 403, and names and ids are validated", async () => {
    const { a, b } = companies;
    expect((await api('GET', `/companies/${a.id}/scim-tokens`, b.adminToken)).status).toBe(404);
    expect((await api('POST', `/companies/${a.id}/scim-tokens`, b.adminToken, { name: 'x' })).status).toBe(404);
    const user = await earshot.signer.sign({
      userId: crypto.randomUUID(),
      companyId: a.id,
      role: 'USER',
      email: 'u@x.test',
    });
    expect((await api('GET', `/companies/${a.id}/scim-tokens`, user)).status).toBe(403);
    const empty = await api('POST', `/companies/${a.id}/scim-tokens`, a.adminToken, { name: '' });
    expect(empty.status).toBe(400);
    expect(empty.json.details[0]?.field).toBe('body.name');
    const nul = await api('POST', `/companies/${a.id}/scim-tokens`, a.adminToken, { name: 'a\u0000b' });
    expect(nul.status).toBe(400);
    expect(nul.json.message).toContain('body.name');
  });
});

describe('SCIM authentication', () => {
  test('no token, a malformed one, a person’s session or access token: 401 in the SCIM error format', async () => {
    const { a } = companies;
    const session = await provisionWithSession(a, `session-holder@${a.domain}.test`);
    const userToken = await earshot.signer.sign({
      userId: session.id,
      companyId: a.id,
      role: 'USER',
      email: 'x@x.test',
    });
    for (const token of [null, 'scim_not-a-real-token', userToken, a.adminToken]) {
      const res = await scim('GET', '/Users', token);
      expect(res.status).toBe(401);
      expect(res.type).toContain(SCIM_TYPE);
      expect(res.json).toEqual({ schemas: [ERROR_SCHEMA], status: '401', detail: expect.any(String) });
    }
    const withCookie = await fetch(`${origin}/api/scim/v2/Users`, { headers: { cookie: session.cookie } });
    expect(withCookie.status).toBe(401);
  });

  test('discovery: ServiceProviderConfig, ResourceTypes and Schemas answer application/scim+json', async () => {
    const { a } = companies;
    const config = await scim('GET', '/ServiceProviderConfig', a.scimToken);
    expect(config.status).toBe(200);
    expect(config.type).toContain(SCIM_TYPE);
    expect(config.json).toMatchObject({
      patch: { supported: true },
      bulk: { supported: false },
      filter: { supported: true, maxResults: 200 },
      authenticationSchemes: [{ type: 'oauthbearertoken' }],
    });
    const types = await scim('GET', '/ResourceTypes', a.scimToken);
    expect(types.json.Resources.map((r) => r.endpoint)).toEqual(['/Users', '/Groups']);
    const schemas = await scim('GET', '/Schemas', a.scimToken);
    expect(schemas.json.Resources.map((r) => r.id)).toEqual([
      USER_SCHEMA,
      'urn:ietf:params:scim:schemas:core:2.0:Group',
    ]);
  });
});

describe('SCIM Users', () => {
  test('create, find by userName, conflict on a second create, read by id', async () => {
    const { a } = companies;
    const email = `grace@${a.domain}.test`;
    const body = oktaUser(email.toUpperCase(), 'Grace', 'Hopper');
    const created = await scim('POST', '/Users', a.scimToken, body);
    expect(created.status).toBe(201);
    expect(created.type).toContain(SCIM_TYPE);
    expect(created.json).toMatchObject({
      schemas: [USER_SCHEMA],
      userName: email,
      externalId: body.externalId,
      name: { givenName: 'Grace', familyName: 'Hopper' },
      active: true,
      groups: [{ value: 'USER' }],
      meta: { resourceType: 'User', location: expect.stringContaining(`/api/scim/v2/Users/${created.json.id}`) },
    });
    // The console sees the person in the company, with the role USER.
    const seen = await api('GET', `/users/${created.json.id}`, a.adminToken);
    expect(seen.json).toMatchObject({ email, role: 'USER', status: 'active', companyId: a.id });

    const found = await scim('GET', `/Users?filter=${encodeURIComponent(`userName eq "${email}"`)}`, a.scimToken);
    expect(found.json).toMatchObject({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
      totalResults: 1,
      startIndex: 1,
      itemsPerPage: 1,
    });
    expect(found.json.Resources[0]?.id).toBe(created.json.id);
    const byExternal = await scim(
      'GET',
      `/Users?filter=${encodeURIComponent(`externalId eq "${body.externalId}"`)}`,
      a.scimToken,
    );
    expect(byExternal.json.Resources.map((r) => r.id)).toEqual([created.json.id]);
    const none = await scim('GET', `/Users?filter=${encodeURIComponent('userName eq "nobody@x.test"')}`, a.scimToken);
    expect(none.json).toMatchObject({ totalResults: 0, Resources: [] });

    const again = await scim('POST', '/Users', a.scimToken, oktaUser(email));
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({ schemas: [ERROR_SCHEMA], status: '409', scimType: 'uniqueness' });

    const read = await scim('GET', `/Users/${created.json.id}`, a.scimToken);
    expect(read.json.userName).toBe(email);
    expect((await scim('GET', `/Users/${crypto.randomUUID()}`, a.scimToken)).json).toMatchObject({ status: '404' });
  });

  test('paging with startIndex and count walks every person once', async () => {
    const { b } = companies;
    for (const name of ['p1', 'p2', 'p3']) {
      expect((await scim('POST', '/Users', b.scimToken, oktaUser(`${name}@${b.domain}.test`))).status).toBe(201);
    }
    const all = await scim('GET', '/Users', b.scimToken);
    const total = all.json.totalResults;
    expect(total).toBeGreaterThanOrEqual(4);
    const seen: string[] = [];
    for (let start = 1; start <= total; start += 2) {
      const page = await scim('GET', `/Users?startIndex=${start}&count=2`, b.scimToken);
      expect(page.json).toMatchObject({ totalResults: total, startIndex: start });
      expect(page.json.itemsPerPage).toBe(Math.min(2, total - start + 1));
      seen.push(...page.json.Resources.map((r) => r.id));
    }
    expect(seen).toEqual(all.json.Resources.map((r) => r.id));
    expect(new Set(seen).size).toBe(total);
    const totalsOnly = await scim('GET', '/Users?count=0', b.scimToken);
    expect(totalsOnly.json).toMatchObject({ totalResults: total, itemsPerPage: 0, Resources: [] });
  });

  test('a filter other than eq on userName or externalId is 400 invalidFilter; bad input is 400 invalidValue', async () => {
    const { a } = companies;
    for (const filter of ['userName sw "a"', 'title eq "x"', 'userName eq "a" or userName eq "b"', 'garbage']) {
      const res = await scim('GET', `/Users?filter=${encodeURIComponent(filter)}`, a.scimToken);
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ schemas: [ERROR_SCHEMA], status: '400', scimType: 'invalidFilter' });
    }
    const notEmail = await scim('POST', '/Users', a.scimToken, { ...oktaUser('x@x.test'), userName: 'not-an-email' });
    expect(notEmail.json).toMatchObject({ status: '400', scimType: 'invalidValue' });
    const noUserName = await scim('POST', '/Users', a.scimToken, { schemas: [USER_SCHEMA] });
    expect(noUserName.json).toMatchObject({ status: '400', scimType: 'invalidValue' });
    expect(noUserName.json.detail).toContain('userName');
    const badActive = await scim('POST', '/Users', a.scimToken, {
      ...oktaUser(`x1@${a.domain}.test`),
      active: 'maybe',
    });
    expect(badActive.json).toMatchObject({ status: '400', scimType: 'invalidValue' });
    const malformed = await fetch(`${origin}/api/scim/v2/Users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.scimToken}`, 'content-type': SCIM_TYPE },
      body: '{"userName": ',
    });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ status: '400', scimType: 'invalidSyntax' });
  });

  test('PUT replaces the names, userName and externalId', async () => {
    const { a } = companies;
    const created = await scim('POST', '/Users', a.scimToken, oktaUser(`old.name@${a.domain}.test`));
    const body = oktaUser(`new.name@${a.domain}.test`, 'Newfirst', 'Newlast');
    const replaced = await scim('PUT', `/Users/${created.json.id}`, a.scimToken, body);
    expect(replaced.status).toBe(200);
    expect(replaced.json).toMatchObject({
      userName: `new.name@${a.domain}.test`,
      externalId: body.externalId,
      name: { givenName: 'Newfirst', familyName: 'Newlast' },
      active: true,
    });
    expect((await api('GET', `/users/${created.json.id}`, a.adminToken)).json).toMatchObject({
      email: `new.name@${a.domain}.test`,
      firstName: 'Newfirst',
      lastName: 'Newlast',
    });
  });

  test('PATCH active false (Entra ID: path, "False") ends the live session at once and sign-in fails', async () => {
    const { a } = companies;
    const email = `leaver@${a.domain}.test`;
    const person = await provisionWithSession(a, email);
    const patched = await scim('PATCH', `/Users/${person.id}`, a.scimToken, {
      schemas: [PATCH_SCHEMA],
      Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
    });
    expect(patched.status).toBe(200);
    expect(patched.json.active).toBe(false);
    expect((await withSession(person.cookie, 'GET', '/users/profile')).status).toBe(401);
    const login = await fetch(`${origin}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [CSRF_HEADER]: 'XMLHttpRequest' },
      body: JSON.stringify({ email, password: PERSON_PASSWORD, domain: a.domain }),
    });
    expect(login.status).toBe(401);
    expect((await api('GET', `/users/${person.id}`, a.adminToken)).json.status).toBe('disabled');
    // Back on (Okta: no path, a value object): the account works again.
    const back = await scim('PATCH', `/Users/${person.id}`, a.scimToken, {
      schemas: [PATCH_SCHEMA],
      Operations: [{ op: 'replace', value: { active: true, 'name.givenName': 'Returned' } }],
    });
    expect(back.json).toMatchObject({ active: true, name: { givenName: 'Returned' } });
    await signIn(email, a.domain);
  });

  test('PATCH active false without a path (Okta) ends the session too, and is audited with the token as actor', async () => {
    const { a } = companies;
    const person = await provisionWithSession(a, `okta-leaver@${a.domain}.test`);
    const patched = await scim('PATCH', `/Users/${person.id}`, a.scimToken, {
      schemas: [PATCH_SCHEMA],
      Operations: [{ op: 'replace', value: { active: false } }],
    });
    expect(patched.json.active).toBe(false);
    expect((await withSession(person.cookie, 'GET', '/users/profile')).status).toBe(401);
    await earshot.settle();
    const changes = await api('GET', '/audit/provisioning', a.adminToken);
    expect(changes.status).toBe(200);
    const entry = changes.json.items.find((e) => e.type === 'user.updated' && e.target.id === person.id);
    expect(entry?.actor).toMatchObject({ type: 'service', id: `scim-token:${a.scimTokenId}` });
    expect(entry?.after.status).toBe('disabled');
    // Another company's ADMIN sees none of it.
    const other = await api('GET', '/audit/provisioning', companies.b.adminToken);
    expect(other.json.items.every((e) => e.companyId === companies.b.id)).toBe(true);
  });

  test('DELETE ends the session and removes the person; their recording stays with the company', async () => {
    const { a } = companies;
    const person = await provisionWithSession(a, `removed@${a.domain}.test`);
    const samples = randomBytes(8_000);
    const form = new FormData();
    form.append('file', new Blob([wavHeader(samples.length), samples], { type: 'audio/wav' }), 'their-call.wav');
    const upload = await fetch(`${origin}/api/files/upload`, {
      method: 'POST',
      headers: { cookie: person.cookie, [CSRF_HEADER]: 'XMLHttpRequest' },
      body: form,
    });
    expect(upload.status).toBe(201);
    const fileId = ((await upload.json()) as { _id: string })._id;

    const deleted = await scim('DELETE', `/Users/${person.id}`, a.scimToken);
    expect(deleted.status).toBe(204);
    expect((await withSession(person.cookie, 'GET', '/users/profile')).status).toBe(401);
    expect((await scim('GET', `/Users/${person.id}`, a.scimToken)).status).toBe(404);
    expect((await scim('DELETE', `/Users/${person.id}`, a.scimToken)).status).toBe(404);
    await earshot.settle();
    expect((await api('GET', `/files/${fileId}`, a.adminToken)).status).toBe(200);
  });

  test("a token reaches only its own company: another company's person is 404 and never listed", async () => {
    const { a, b } = companies;
    const created = await scim('POST', '/Users', a.scimToken, oktaUser(`private@${a.domain}.test`));
    const id = created.json.id;
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', oktaUser(`taken@${b.domain}.test`)],
      ['PATCH', { schemas: [PATCH_SCHEMA], Operations: [{ op: 'replace', path: 'active', value: false }] }],
      ['DELETE', undefined],
    ] as const) {
      const res = await scim(method, `/Users/${id}`, b.scimToken, body);
      expect(res.status).toBe(404);
      expect(res.json).toMatchObject({ schemas: [ERROR_SCHEMA], status: '404' });
    }
    const listed = await scim(
      'GET',
      `/Users?filter=${encodeURIComponent(`userName eq "private@${a.domain}.test"`)}`,
      b.scimToken,
    );
    expect(listed.json.totalResults).toBe(0);
    expect((await scim('GET', '/Users?count=200', b.scimToken)).text).not.toContain(id);
    expect((await api('GET', `/users/${id}`, a.adminToken)).json.status).toBe('active');
  });

  test("the company's user limit is a 409 with scimType tooMany", async () => {
    const { small } = companies;
    expect((await scim('POST', '/Users', small.scimToken, oktaUser(`one@${small.domain}.test`))).status).toBe(201);
    const over = await scim('POST', '/Users', small.scimToken, oktaUser(`two@${small.domain}.test`));
    expect(over.status).toBe(409);
    expect(over.json).toEqual({
      schemas: [ERROR_SCHEMA],
      status: '409',
      scimType: 'tooMany',
      detail: expect.stringContaining('maximum number of users'),
    });
  });
});

describe('SCIM Groups are the roles', () => {
  test('adding to ADMIN makes an ADMIN (their session ends), removing goes back to USER, PUT CALLER sets CALLER', async () => {
    const { a } = companies;
    const groups = await scim('GET', '/Groups?excludedAttributes=members', a.scimToken);
    expect(groups.json.Resources.map((g) => g.displayName)).toEqual(['ADMIN', 'USER', 'CALLER']);
    expect(groups.json.Resources[0]?.members).toBeUndefined();
    const admins = await scim('GET', `/Groups?filter=${encodeURIComponent('displayName eq "ADMIN"')}`, a.scimToken);
    expect(admins.json.Resources.map((g) => g.id)).toEqual(['ADMIN']);

    const person = await provisionWithSession(a, `promoted@${a.domain}.test`);
    const added = await scim('PATCH', '/Groups/ADMIN', a.scimToken, {
      schemas: [PATCH_SCHEMA],
      Operations: [{ op: 'add', path: 'members', value: [{ value: person.id, display: 'promoted' }] }],
    });
    expect(added.status).toBe(200);
    expect(added.json.members?.map((m) => m.value)).toContain(person.id);
    expect((await api('GET', `/users/${person.id}`, a.adminToken)).json.role).toBe('ADMIN');
    // The token stated the old role: the person signs in again.
    expect((await withSession(person.cookie, 'GET', '/users/profile')).status).toBe(401);
    expect((await scim('GET', `/Users/${person.id}`, a.scimToken)).json.groups).toEqual([
      expect.objectContaining({ value: 'ADMIN' }),
    ]);

    const removed = await scim('PATCH', '/Groups/ADMIN', a.scimToken, {
      schemas: [PATCH_SCHEMA],
      Operations: [{ op: 'remove', path: `members[value eq "${person.id}"]` }],
    });
    expect(removed.json.members?.map((m) => m.value)).not.toContain(person.id);
    expect((await api('GET', `/users/${person.id}`, a.adminToken)).json.role).toBe('USER');

    const callers = await scim('PUT', '/Groups/CALLER', a.scimToken, {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      displayName: 'CALLER',
      members: [{ value: person.id }],
    });
    expect(callers.json.members?.map((m) => m.value)).toEqual([person.id]);
    expect((await api('GET', `/users/${person.id}`, a.adminToken)).json.role).toBe('CALLER');
    // Entra ID removes with a value list.
    await scim('PATCH', '/Groups/CALLER', a.scimToken, {
      schemas: [PATCH_SCHEMA],
      Operations: [{ op: 'Remove', path: 'members', value: [{ value: person.id }] }],
    });
    expect((await api('GET', `/users/${person.id}`, a.adminToken)).json.role).toBe('USER');
  });

  test("groups refuse what roles cannot do, and another company's person is not a member to add", async () => {
    const { a, b } = companies;
    expect((await scim('GET', '/Groups/ENGINEERING', a.scimToken)).status).toBe(404);
    expect((await scim('POST', '/Groups', a.scimToken, { displayName: 'ADMIN' })).json).toMatchObject({
      status: '409',
      scimType: 'uniqueness',
    });
    expect((await scim('POST', '/Groups', a.scimToken, { displayName: 'Engineering' })).json).toMatchObject({
      status: '400',
      scimType: 'invalidValue',
    });
    expect((await scim('DELETE', '/Groups/USER', a.scimToken)).json).toMatchObject({
      status: '400',
      scimType: 'mutability',
    });
    const other = await scim('POST', '/Users', b.scimToken, oktaUser(`outsider@${b.domain}.test`));
    const add = await scim('PATCH', '/Groups/ADMIN', a.scimToken, {
      schemas: [PATCH_SCHEMA],
      Operations: [{ op: 'add', path: 'members', value: [{ value: other.json.id }] }],
    });
    expect(add.json).toMatchObject({ status: '400', scimType: 'invalidValue' });
    expect((await api('GET', `/users/${other.json.id}`, b.adminToken)).json.role).toBe('USER');
  });
});
