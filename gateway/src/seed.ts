import type { FastifyInstance } from 'fastify';
import type { TokenSigner } from '@earshot/kit';

export interface DemoSeed {
  password: string;
  users: { email: string; role: string }[];
}

const DEMO_USERS = [
  { firstName: 'Ada', lastName: 'Admin', email: 'admin@acme.test', role: 'ADMIN' },
  { firstName: 'Uma', lastName: 'User', email: 'user@acme.test', role: 'USER' },
  { firstName: 'Cal', lastName: 'Caller', email: 'caller@acme.test', role: 'CALLER' },
] as const;

/**
 * Creates the demo company and its users through the public API (so the same validation, events
 * and audit entries apply), acting as the platform itself. Skipped when `acme` already exists.
 */
export async function seedDemo(
  app: FastifyInstance,
  signer: TokenSigner,
  password: string,
  waitForEvents: () => Promise<void>,
): Promise<DemoSeed | null> {
  const token = await signer.sign({
    userId: '00000000-0000-0000-0000-000000000000',
    companyId: null,
    role: 'HOST_ADMIN',
    email: 'system@earshot.local',
  });
  const headers = { authorization: `Bearer ${token}` };
  // Asked as the platform (not the public config route, which hides inactive companies).
  const existing = await app.inject({ method: 'GET', url: '/api/companies?q=acme', headers });
  if (existing.statusCode !== 200)
    throw new Error(`Checking for the demo company failed: ${existing.statusCode} ${existing.body}`);
  if ((existing.json() as { items: { domain: string }[] }).items.some((c) => c.domain === 'acme')) return null;
  const company = await app.inject({
    method: 'POST',
    url: '/api/companies',
    headers,
    payload: {
      name: 'Acme Corporation',
      code: 'ACME',
      domain: 'acme',
      type: 'enterprise',
      status: 'active',
      maxUsers: 50,
      maxStorage: 10 * 1024 ** 3,
      language: 'en',
    },
  });
  if (company.statusCode !== 201)
    throw new Error(`Seeding the demo company failed: ${company.statusCode} ${company.body}`);
  const companyId = (company.json() as { _id: string })._id;
  // The auth service learns of the company from its event: once the in-process bus is idle, or,
  // through Kafka, once its consumer group has joined and read it (seconds), so until it knows.
  await waitForEvents();
  const deadline = Date.now() + 60_000;
  const register = (user: (typeof DEMO_USERS)[number]) =>
    app.inject({ method: 'POST', url: '/api/users/register', headers, payload: { ...user, password, companyId } });
  for (const user of DEMO_USERS) {
    let created = await register(user);
    while (created.statusCode === 404 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      created = await register(user);
    }
    if (created.statusCode !== 201)
      throw new Error(`Seeding ${user.email} failed: ${created.statusCode} ${created.body}`);
  }
  return { password, users: DEMO_USERS.map((u) => ({ email: u.email, role: u.role })) };
}
