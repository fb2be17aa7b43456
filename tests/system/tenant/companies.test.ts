import { sql } from 'drizzle-orm';
import type { Envelope } from '@earshot/contracts';
import { buildEnvelope } from '@earshot/kit';
import { createTestStack, type TestStack } from '@earshot/kit/testing';
import { billingService } from '@earshot/billing-service';
import { tenantService } from '@earshot/tenant-service';
import { insertCompany } from '../../../services/tenant/src/repositories/companies';
import { CompanyService } from '../../../services/tenant/src/services/companies';
import { rethrowDuplicate } from '../../../services/tenant/src/services/errors';
import { FeatureService } from '../../../services/tenant/src/services/features';

let stack: TestStack;
let host: string;
const seen: Envelope[] = [];

beforeAll(async () => {
  stack = await createTestStack([tenantService, billingService]);
  await stack.bus.subscribe({
    group: 'test-observer',
    topics: ['earshot.tenant'],
    handle: async (e) => void seen.push(e),
  });
  host = await stack.tokenFor('HOST_ADMIN', null);
}, 60_000);
afterAll(async () => stack.close());

const acme = {
  name: 'Acme Corporation',
  code: 'ACME',
  domain: 'acme',
  type: 'enterprise',
  status: 'active',
  maxUsers: 50,
  maxStorage: 10 * 1024 ** 3,
  language: 'en',
};

async function create(body: Record<string, unknown>) {
  return stack.as(host, { method: 'POST', url: '/api/companies', payload: body });
}

/** Companies plus events written: a rejected request changes neither. */
async function writtenSoFar(): Promise<string> {
  const rows = await stack.database.query<{ n: string }>(
    "select (select count(*) from tenant.companies) || '/' || (select count(*) from tenant.outbox) as n",
  );
  return rows[0]!.n;
}

let counter = 0;
/** A distinct valid company body. */
function fresh(overrides: Record<string, unknown> = {}) {
  counter += 1;
  return { name: `Company ${counter}`, code: `CO-${counter}`, domain: `company-${counter}`, ...overrides };
}

describe('creating a company', () => {
  test('the seed request is accepted: 201 with _id, the fields, defaults and the API key once', async () => {
    const res = await create(acme);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      ...acme,
      encryption: false,
      partnerCompanyId: null,
      favIcon: null,
      balance: 0,
      settings: { theme: {} },
    });
    expect(body._id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.apiKey).toMatch(/^esk_[A-Za-z0-9_-]{32}$/);

    // The key is shown once: afterwards only its last four characters.
    const got = await stack.as(host, { method: 'GET', url: `/api/companies/${body._id}` });
    expect(got.statusCode).toBe(200);
    expect(got.json().apiKey).toBe(`****${body.apiKey.slice(-4)}`);
    const list = await stack.as(host, { method: 'GET', url: '/api/companies?q=acme' });
    expect(list.json().items[0].apiKey).toBe(`****${body.apiKey.slice(-4)}`);
    expect(list.body).not.toContain(body.apiKey);
    // Stored hashed, never in plain text.
    const stored = await stack.database.query<{ api_key_hash: string }>(
      'select api_key_hash from tenant.companies where id = $1',
      [body._id],
    );
    expect(stored[0]!.api_key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(body.apiKey);

    // The public config answers for the seeded sub-domain.
    const config = await stack.as(null, { method: 'GET', url: '/api/config/company/acme' });
    expect(config.statusCode).toBe(200);
    expect(config.json()).toEqual({
      name: 'Acme Corporation',
      favIcon: null,
      logo: null,
      mainPageLogo: null,
      settings: { theme: {} },
    });
  });

  test('emits company.created with the state after, never the API key', async () => {
    const res = await create(fresh({ maxUsers: null }));
    const { _id, apiKey } = res.json();
    await stack.settle();
    const event = seen.find((e) => e.type === 'company.created' && e.companyId === _id)!;
    expect(event).toBeDefined();
    expect(event.actor).toMatchObject({ type: 'user', role: 'HOST_ADMIN', email: 'host_admin@test.local' });
    expect(event.data).toMatchObject({
      id: _id,
      before: null,
      after: { code: res.json().code, domain: res.json().domain, status: 'active', maxUsers: null, maxStorage: null },
    });
    expect(JSON.stringify(event)).not.toContain(apiKey);
    expect(JSON.stringify(event)).not.toContain(apiKey.slice(-4) + '"');
  });

  test('code and domain are normalised (upper-case code, lower-case domain)', async () => {
    const res = await create({ name: 'Lower', code: 'low-1', domain: 'Lower-Case' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      code: 'LOW-1',
      domain: 'lower-case',
      type: 'business',
      status: 'active',
      language: 'en',
    });
  });

  test('a duplicate code or domain is a 409 naming the field, and nothing is written', async () => {
    const before = await writtenSoFar();
    const code = await create({ ...fresh(), code: 'acme' });
    expect(code.statusCode).toBe(409);
    expect(code.json().message).toMatch(/code/);
    expect(code.json().details).toEqual([{ field: 'body.code', message: 'is already taken' }]);
    const domain = await create({ ...fresh(), domain: 'ACME' });
    expect(domain.statusCode).toBe(409);
    expect(domain.json().message).toMatch(/domain/);
    expect(await writtenSoFar()).toBe(before);
  });

  test.each([
    ['name', { name: '' }],
    ['name', { name: 'x'.repeat(121) }],
    ['code', { code: 'bad code!' }],
    ['domain', { domain: 'not_a_label' }],
    ['domain', { domain: 'www' }],
    ['domain', { domain: 'a'.repeat(64) }],
    ['type', { type: 'galactic' }],
    ['status', { status: 'deleted' }],
    ['maxUsers', { maxUsers: 0 }],
    ['maxUsers', { maxUsers: 1.5 }],
    ['maxStorage', { maxStorage: -1 }],
    ['language', { language: 'de' }],
    ['encryption', { encryption: 'yes' }],
    ['partnerCompanyId', { partnerCompanyId: 'not-a-uuid' }],
    ['logo', { logo: 'javascript:alert(1)' }],
    ['logo', { logo: 'http://example.com/logo.png' }],
    ['favIcon', { favIcon: 'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=' }],
    ['mainPageLogo', { mainPageLogo: '/uploads/../etc/passwd' }],
    ['settings.theme.primary', { settings: { theme: { primary: 'red' } } }],
    ['settings.theme', { settings: { theme: { background: '#ffffff' } } }],
    ['unknown', { unknown: 1 }],
  ])('a bad %s is a 400 naming it, and nothing is written', async (field, patch) => {
    const before = await writtenSoFar();
    const res = await create({ ...fresh(), ...patch });
    expect(res.statusCode).toBe(400);
    const named = JSON.stringify(res.json().details ?? res.json().message);
    for (const part of field.split('.')) expect(named).toContain(part);
    expect(await writtenSoFar()).toBe(before);
  });

  test('a missing required field is a 400 naming it', async () => {
    const { domain: _omit, ...body } = fresh();
    const res = await create(body);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/domain/);
  });

  test('branding accepts https URLs, /uploads/ paths and raster data URLs, and validated theme colours', async () => {
    const branding = {
      favIcon: 'data:image/png;base64,iVBORw0KGgo=',
      logo: 'https://cdn.example.com/logo.png',
      mainPageLogo: '/uploads/acme/main-logo.png',
      settings: {
        theme: {
          primary: '#3b82f6',
          primaryLight: '#93c5fd',
          primaryDark: '#1E40AF',
          secondary: '#fff',
          accent: '#f59e0b',
        },
      },
    };
    const res = await create(fresh({ domain: 'branded', ...branding }));
    expect(res.statusCode).toBe(201);
    const config = await stack.as(null, { method: 'GET', url: '/api/config/company/branded' });
    expect(config.json()).toEqual({
      name: res.json().name,
      favIcon: branding.favIcon,
      logo: branding.logo,
      mainPageLogo: branding.mainPageLogo,
      settings: branding.settings,
    });
  });

  test('a partner company must exist', async () => {
    const missing = await create(fresh({ partnerCompanyId: '11111111-1111-4111-8111-111111111111' }));
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toMatch(/partnerCompanyId/);
    const partner = (await create(fresh({ type: 'partner' }))).json();
    const client = await create(fresh({ partnerCompanyId: partner._id }));
    expect(client.statusCode).toBe(201);
    expect(client.json().partnerCompanyId).toBe(partner._id);
  });

  test('malformed JSON is a 400 and the process keeps answering', async () => {
    const res = await stack.as(host, {
      method: 'POST',
      url: '/api/companies',
      payload: '{"name":',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect((await stack.as(host, { method: 'GET', url: '/api/companies' })).statusCode).toBe(200);
  });
});

describe('listing and reading', () => {
  test('the list is paginated, searchable and filterable by status', async () => {
    await create(fresh({ name: 'Zeta Suspended', status: 'suspended' }));
    const all = (await stack.as(host, { method: 'GET', url: '/api/companies?pageSize=2' })).json();
    expect(all.items).toHaveLength(2);
    expect(all.total).toBeGreaterThan(2);
    expect(all.totalPages).toBe(Math.ceil(all.total / 2));
    const page2 = (await stack.as(host, { method: 'GET', url: '/api/companies?pageSize=2&page=2' })).json();
    expect(page2.items.map((c: { _id: string }) => c._id)).not.toContain(all.items[0]._id);

    const suspended = (await stack.as(host, { method: 'GET', url: '/api/companies?status=suspended' })).json();
    expect(suspended.items.map((c: { name: string }) => c.name)).toEqual(['Zeta Suspended']);
    const search = (await stack.as(host, { method: 'GET', url: '/api/companies?q=ZETA' })).json();
    expect(search.total).toBe(1);
    // % is matched literally, not as a wildcard.
    expect((await stack.as(host, { method: 'GET', url: '/api/companies?q=%25' })).json().total).toBe(0);
    expect((await stack.as(host, { method: 'GET', url: '/api/companies?status=gone' })).statusCode).toBe(400);
    expect((await stack.as(host, { method: 'GET', url: '/api/companies?sort=name' })).statusCode).toBe(400);
  });

  test('the dropdown lists ids and names', async () => {
    const res = await stack.as(host, { method: 'GET', url: '/api/companies/dropdown' });
    expect(res.statusCode).toBe(200);
    const acmeItem = res.json().find((c: { name: string }) => c.name === 'Acme Corporation');
    expect(Object.keys(acmeItem).sort()).toEqual(['_id', 'name']);
  });

  test('an unknown id is a 404, a malformed one a 400', async () => {
    expect(
      (await stack.as(host, { method: 'GET', url: '/api/companies/11111111-1111-4111-8111-111111111111' })).statusCode,
    ).toBe(404);
    expect((await stack.as(host, { method: 'GET', url: '/api/companies/nope' })).statusCode).toBe(400);
  });
});

describe('updating, rotating and deleting', () => {
  test('PUT changes only the fields sent and emits before/after', async () => {
    const created = (await create(fresh({ maxUsers: 5 }))).json();
    const res = await stack.as(host, {
      method: 'PUT',
      url: `/api/companies/${created._id}`,
      payload: { status: 'inactive', settings: { theme: { primary: '#000000' } } },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      name: created.name,
      maxUsers: 5,
      status: 'inactive',
      settings: { theme: { primary: '#000000' } },
    });
    await stack.settle();
    const event = seen.find((e) => e.type === 'company.updated' && e.companyId === created._id)!;
    expect(event.data).toMatchObject({
      id: created._id,
      before: { status: 'active', maxUsers: 5 },
      after: { status: 'inactive', maxUsers: 5, theme: { primary: '#000000' } },
    });
    // An inactive company has no public config.
    expect((await stack.as(null, { method: 'GET', url: `/api/config/company/${created.domain}` })).statusCode).toBe(
      404,
    );
  });

  test('PUT refuses a duplicate domain (409), an empty body and unknown fields (400), writing nothing', async () => {
    const created = (await create(fresh())).json();
    const dup = await stack.as(host, {
      method: 'PUT',
      url: `/api/companies/${created._id}`,
      payload: { domain: 'acme' },
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().details[0].field).toBe('body.domain');
    // Keeping its own code is not a conflict.
    expect(
      (await stack.as(host, { method: 'PUT', url: `/api/companies/${created._id}`, payload: { code: created.code } }))
        .statusCode,
    ).toBe(200);
    expect(
      (await stack.as(host, { method: 'PUT', url: `/api/companies/${created._id}`, payload: {} })).statusCode,
    ).toBe(400);
    const unknown = await stack.as(host, {
      method: 'PUT',
      url: `/api/companies/${created._id}`,
      payload: { apiKey: 'mine', name: 'Changed' },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toMatch(/apiKey/);
    const self = await stack.as(host, {
      method: 'PUT',
      url: `/api/companies/${created._id}`,
      payload: { partnerCompanyId: created._id },
    });
    expect(self.statusCode).toBe(400);
    const after = (await stack.as(host, { method: 'GET', url: `/api/companies/${created._id}` })).json();
    expect(after).toMatchObject({ name: created.name, domain: created.domain, partnerCompanyId: null });
  });

  test('rotating the API key answers 201 {apiKey} once; the old key stops working at once', async () => {
    const created = (await create(fresh())).json();
    const verifier = stack.tokens.apiKeys;
    expect(await verifier.verify(created.apiKey)).toEqual({ companyId: created._id });
    const res = await stack.as(host, { method: 'POST', url: `/api/companies/${created._id}/api-key` });
    expect(res.statusCode).toBe(201);
    expect(Object.keys(res.json())).toEqual(['apiKey']);
    const { apiKey } = res.json();
    expect(apiKey).toMatch(/^esk_[A-Za-z0-9_-]{32}$/);
    expect(apiKey).not.toBe(created.apiKey);
    expect(await verifier.verify(created.apiKey)).toBeNull();
    expect(await verifier.verify(apiKey)).toEqual({ companyId: created._id });
    expect((await stack.as(host, { method: 'GET', url: `/api/companies/${created._id}` })).json().apiKey).toBe(
      `****${apiKey.slice(-4)}`,
    );
    await stack.settle();
    const event = seen.find((e) => e.type === 'company.api_key_rotated' && e.companyId === created._id)!;
    expect(event.data).toEqual({ id: created._id });
    // Neither the key nor its hash ever rides on an event.
    const [{ api_key_hash: hash }] = (await stack.database.query<{ api_key_hash: string }>(
      'select api_key_hash from tenant.companies where id = $1',
      [created._id],
    )) as [{ api_key_hash: string }];
    expect(JSON.stringify(seen)).not.toContain(hash);
    expect(JSON.stringify(seen)).not.toContain(apiKey);
  });

  test('revoking the API key: 200, refused from then on, the company shows no key; a second revoke changes nothing', async () => {
    const created = (await create(fresh())).json();
    const res = await stack.as(host, { method: 'DELETE', url: `/api/companies/${created._id}/api-key` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'API key revoked' });
    expect(await stack.tokens.apiKeys.verify(created.apiKey)).toBeNull();
    expect((await stack.as(host, { method: 'GET', url: `/api/companies/${created._id}` })).json().apiKey).toBeNull();
    await stack.settle();
    expect(
      seen.filter((e) => e.type === 'company.api_key_revoked' && e.companyId === created._id).map((e) => e.data),
    ).toEqual([{ id: created._id }]);
    const before = await writtenSoFar();
    expect((await stack.as(host, { method: 'DELETE', url: `/api/companies/${created._id}/api-key` })).statusCode).toBe(
      200,
    );
    expect(await writtenSoFar()).toBe(before);
    expect(
      (await stack.as(host, { method: 'DELETE', url: '/api/companies/00000000-0000-4000-8000-000000000000/api-key' }))
        .statusCode,
    ).toBe(404);
    // Generating one again works at once.
    const again = (await stack.as(host, { method: 'POST', url: `/api/companies/${created._id}/api-key` })).json();
    expect(await stack.tokens.apiKeys.verify(again.apiKey)).toEqual({ companyId: created._id });
  });

  test('a suspended or inactive company’s key is refused until it is active again', async () => {
    const created = (await create(fresh())).json();
    for (const status of ['suspended', 'inactive']) {
      await stack.as(host, { method: 'PUT', url: `/api/companies/${created._id}`, payload: { status } });
      expect(await stack.tokens.apiKeys.verify(created.apiKey)).toBeNull();
    }
    await stack.as(host, { method: 'PUT', url: `/api/companies/${created._id}`, payload: { status: 'active' } });
    expect(await stack.tokens.apiKeys.verify(created.apiKey)).toEqual({ companyId: created._id });
  });

  test('DELETE marks the company deleting (202), emits company.deleted, and the row goes once every service reported', async () => {
    const created = (await create(fresh())).json();
    const res = await stack.as(host, { method: 'DELETE', url: `/api/companies/${created._id}` });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ message: 'Company deletion started: every service is removing its data' });
    await stack.settle();
    const event = seen.find((e) => e.type === 'company.deleted' && e.companyId === created._id)!;
    expect(event.data).toMatchObject({ id: created._id, before: { code: created.code }, after: null });
    // Asking again while it is deleting changes nothing (no second event); changes are refused.
    expect((await stack.as(host, { method: 'DELETE', url: `/api/companies/${created._id}` })).statusCode).toBe(202);
    expect(
      (await stack.as(host, { method: 'PUT', url: `/api/companies/${created._id}`, payload: { name: 'Back' } }))
        .statusCode,
    ).toBe(409);
    await stack.settle();
    expect(seen.filter((e) => e.type === 'company.deleted' && e.companyId === created._id)).toHaveLength(1);

    // Only this service and billing run here: they have reported themselves, the others are pending.
    const deleting = (await stack.as(host, { method: 'GET', url: `/api/companies/${created._id}` })).json();
    expect(deleting).toMatchObject({
      status: 'deleting',
      pendingServices: ['auth', 'file', 'transcription', 'chat', 'prompt', 'messaging', 'tasks', 'webhooks'],
    });
    const listed = (await stack.as(host, { method: 'GET', url: '/api/companies?status=deleting&pageSize=200' })).json();
    expect(listed.items.map((c: { _id: string }) => c._id)).toContain(created._id);

    const actor = { type: 'system' as const, id: null };
    const report = (service: string) =>
      stack.bus.publish([
        {
          topic: 'earshot.tenant',
          key: created._id,
          envelope: buildEnvelope({
            type: 'company.data_removed',
            companyId: created._id,
            actor,
            data: { companyId: created._id, service },
          }),
        },
      ]);
    for (const service of ['auth', 'file', 'transcription', 'chat', 'messaging', 'tasks', 'webhooks'])
      await report(service);
    await report('auth'); // a redelivered report counts once
    await stack.settle();
    expect(
      (await stack.as(host, { method: 'GET', url: `/api/companies/${created._id}` })).json().pendingServices,
    ).toEqual(['prompt']);
    await report('prompt');
    await stack.settle();
    expect((await stack.as(host, { method: 'GET', url: `/api/companies/${created._id}` })).statusCode).toBe(404);
    expect(
      await stack.database.query('select 1 from tenant.company_removals where company_id = $1', [created._id]),
    ).toEqual([]);
  });

  test('DELETE is refused (409) while the company is another company’s partner, not because it has users', async () => {
    const partner = (await create(fresh())).json();
    const client = (await create(fresh({ partnerCompanyId: partner._id }))).json();
    const refused = await stack.as(host, { method: 'DELETE', url: `/api/companies/${partner._id}` });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain(client.name);

    const userId = crypto.randomUUID();
    const userState = { email: 'u@x.test', firstName: 'U', lastName: 'X', role: 'USER', companyId: client._id };
    await stack.bus.publish([
      {
        topic: 'earshot.auth',
        key: client._id,
        envelope: buildEnvelope({
          type: 'user.created',
          companyId: client._id,
          actor: { type: 'system', id: null },
          data: { id: userId, before: null, after: userState },
        }),
      },
    ]);
    await stack.settle();
    expect((await stack.as(host, { method: 'GET', url: `/api/companies/${client._id}` })).json().userCount).toBe(1);
    expect(
      (
        await stack.as(host, {
          method: 'PUT',
          url: `/api/companies/${client._id}`,
          payload: { partnerCompanyId: null },
        })
      ).statusCode,
    ).toBe(200);
    expect((await stack.as(host, { method: 'DELETE', url: `/api/companies/${client._id}` })).statusCode).toBe(202);
    expect((await stack.as(host, { method: 'DELETE', url: `/api/companies/${partner._id}` })).statusCode).toBe(202);
  });
});

describe('credits, config and features', () => {
  let own: { _id: string; domain: string };
  let other: { _id: string };
  beforeAll(async () => {
    own = (await create(fresh())).json();
    other = (await create(fresh())).json();
  });

  test('credits: a new company starts with its opening credits; the platform administrator sees any company, a company administrator only their own', async () => {
    // COMPANY_OPENING_CREDITS defaults to 1000: granted with the company, in the ledger like any grant.
    expect((await stack.as(host, { method: 'GET', url: `/api/companies/${own._id}/credits` })).json()).toMatchObject({
      balance: 1000,
      reserved: 0,
      ledger: { items: [{ kind: 'grant', amount: 1000, reason: 'Opening credits', eventId: null }], total: 1 },
    });
    const admin = await stack.tokenFor('ADMIN', own._id);
    expect((await stack.as(admin, { method: 'GET', url: `/api/companies/${own._id}/credits` })).json()).toMatchObject({
      balance: 1000,
      reserved: 0,
    });
    expect((await stack.as(admin, { method: 'GET', url: `/api/companies/${other._id}/credits` })).statusCode).toBe(404);
    expect(
      (
        await stack.as(await stack.tokenFor('USER', own._id), {
          method: 'GET',
          url: `/api/companies/${own._id}/credits`,
        })
      ).statusCode,
    ).toBe(403);
  });

  test("an ADMIN's view of their own company is read-only: credits and feature switches, nothing else", async () => {
    const admin = await stack.tokenFor('ADMIN', own._id);
    for (const url of [`/api/companies/${own._id}/credits`, `/api/companies/${own._id}/features`]) {
      expect((await stack.as(admin, { method: 'GET', url })).statusCode).toBe(200);
      expect((await stack.as(admin, { method: 'GET', url: url.replace(own._id, other._id) })).statusCode).toBe(404);
      for (const role of ['USER', 'CALLER'] as const) {
        expect((await stack.as(await stack.tokenFor(role, own._id), { method: 'GET', url })).statusCode).toBe(403);
      }
    }
    // The company itself, its config and the catalogue stay the platform administrator's (they are the platform's, not a company's).
    for (const url of [
      `/api/companies/${own._id}`,
      `/api/companies/${own._id}/config`,
      '/api/features',
      '/api/companies',
    ]) {
      expect((await stack.as(admin, { method: 'GET', url })).statusCode).toBe(403);
    }
  });

  test('the services scope by the identity they are given, not only the routes: an ADMIN identity sees its own company alone', async () => {
    const ctx = stack.running.contexts.get('tenant')!;
    const admin = {
      userId: crypto.randomUUID(),
      companyId: own._id,
      role: 'ADMIN' as const,
      email: 'a@own.test',
      via: 'bearer' as const,
      ip: '127.0.0.1',
      sessionId: 'test-session',
    };
    const companies = new CompanyService(ctx as ConstructorParameters<typeof CompanyService>[0]);
    const listed = await companies.list(admin, { page: 1, pageSize: 50 });
    expect(listed.items.map((c) => c._id)).toEqual([own._id]);
    expect((await companies.dropdown(admin)).map((c) => c._id)).toEqual([own._id]);
    await expect(companies.get(admin, other._id)).rejects.toMatchObject({ statusCode: 404 });
    await expect(companies.update(admin, other._id, { name: 'Taken over' })).rejects.toMatchObject({ statusCode: 404 });
    await expect(new FeatureService(ctx).set(admin, other._id, { features: { chat: false } })).rejects.toMatchObject({
      statusCode: 404,
    });
    expect((await companies.get(admin, own._id))._id).toBe(own._id);
  });

  test('the admin config shows branding, domain, status and feature switches', async () => {
    const res = await stack.as(host, { method: 'GET', url: `/api/companies/${own._id}/config` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      _id: own._id,
      domain: own.domain,
      status: 'active',
      language: 'en',
      features: { transcription: true, custom_gpts: true, forest_ai: true },
    });
  });

  test('the features catalogue and per-company switches', async () => {
    const catalogue = (await stack.as(host, { method: 'GET', url: '/api/features' })).json();
    expect(catalogue.map((f: { key: string }) => f.key)).toEqual(
      expect.arrayContaining(['transcription', 'chat', 'analysis', 'custom_gpts', 'clients']),
    );

    const res = await stack.as(host, {
      method: 'PUT',
      url: `/api/companies/${own._id}/features`,
      payload: { features: { custom_gpts: false, chat: false } },
    });
    expect(res.statusCode).toBe(200);
    const enabled = Object.fromEntries(res.json().map((f: { key: string; enabled: boolean }) => [f.key, f.enabled]));
    expect(enabled).toMatchObject({ custom_gpts: false, chat: false, transcription: true });

    const admin = await stack.tokenFor('ADMIN', own._id);
    expect((await stack.as(admin, { method: 'GET', url: `/api/companies/${own._id}/features` })).json()).toEqual(
      res.json(),
    );
    expect((await stack.as(admin, { method: 'GET', url: `/api/companies/${other._id}/features` })).statusCode).toBe(
      404,
    );
    expect(
      (
        await stack.as(admin, {
          method: 'PUT',
          url: `/api/companies/${own._id}/features`,
          payload: { features: { chat: true } },
        })
      ).statusCode,
    ).toBe(403);
    const unknown = await stack.as(host, {
      method: 'PUT',
      url: `/api/companies/${own._id}/features`,
      payload: { features: { teleport: true } },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toMatch(/teleport/);

    await stack.settle();
    const event = seen.find((e) => e.type === 'company.features_changed' && e.companyId === own._id)!;
    expect(event.data).toMatchObject({
      before: { chat: true, custom_gpts: true },
      after: { chat: false, custom_gpts: false },
    });
  });
});

describe('public config', () => {
  test('unknown sub-domains are a 404; lookup ignores case; no session needed', async () => {
    expect((await stack.as(null, { method: 'GET', url: '/api/config/company/nobody-here' })).statusCode).toBe(404);
    const res = await stack.as(null, { method: 'GET', url: '/api/config/company/ACME' });
    expect(res.statusCode).toBe(200);
    expect(res.json().name).toBe('Acme Corporation');
    expect(res.headers['cache-control']).toBe('public, max-age=60');
  });

  test('a suspended company has no public config', async () => {
    await create(fresh({ domain: 'suspended-co', status: 'suspended' }));
    expect((await stack.as(null, { method: 'GET', url: '/api/config/company/suspended-co' })).statusCode).toBe(404);
  });
});

describe('access', () => {
  // Every row has three cells: jest hands a `done` callback to a test taking more arguments than its row.
  const routes: [string, string, unknown][] = [
    ['GET', '/api/companies', undefined],
    ['GET', '/api/companies/dropdown', undefined],
    ['POST', '/api/companies', { name: 'X', code: 'X', domain: 'x-co' }],
    ['GET', '/api/companies/:id', undefined],
    ['PUT', '/api/companies/:id', { name: 'Hijacked' }],
    ['DELETE', '/api/companies/:id', undefined],
    ['POST', '/api/companies/:id/api-key', undefined],
    ['DELETE', '/api/companies/:id/api-key', undefined],
    ['GET', '/api/companies/:id/config', undefined],
    ['GET', '/api/features', undefined],
    ['PUT', '/api/companies/:id/features', { features: { chat: false } }],
  ];

  test.each(routes)(
    '%s %s: anonymous 401; ADMIN, USER and CALLER 403; nothing changes',
    async (method, url, payload) => {
      const target = (await create(fresh())).json();
      const path = url.replace(':id', target._id);
      const before = await writtenSoFar();
      const anonymous = await stack.as(null, {
        method: method as 'GET',
        url: path,
        ...(payload ? { payload: payload as object } : {}),
      });
      expect(anonymous.statusCode).toBe(401);
      for (const role of ['ADMIN', 'USER', 'CALLER'] as const) {
        const token = await stack.tokenFor(role, target._id);
        const res = await stack.as(token, {
          method: method as 'GET',
          url: path,
          ...(payload ? { payload: payload as object } : {}),
        });
        expect(res.statusCode).toBe(403);
      }
      expect(await writtenSoFar()).toBe(before);
      const still = (await stack.as(host, { method: 'GET', url: `/api/companies/${target._id}` })).json();
      expect(still).toMatchObject({ name: target.name, apiKey: `****${target.apiKey.slice(-4)}` });
    },
  );
});

test('a unique violation that slips past the pre-check is still a 409 naming the field', async () => {
  const error = await stack.running.contexts
    .get('tenant')!
    .transact((tx) =>
      insertCompany(tx, {
        name: 'Race',
        code: 'ACME',
        domain: 'race',
        type: 'business',
        status: 'active',
        language: 'en',
      }),
    )
    .then(
      () => null,
      (e: unknown) => e,
    );
  expect(() => rethrowDuplicate(error)).toThrow(/code/);
  // Any other database error passes through unchanged.
  const other = await stack.database.db.execute(sql`select 1/0`).then(
    () => null,
    (e: unknown) => e,
  );
  expect(() => rethrowDuplicate(other)).toThrow(other as Error);
});
