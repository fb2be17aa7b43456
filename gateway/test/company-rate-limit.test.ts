import { createWorld, type World } from './world';

/**
 * Every company has a request bucket of its own (COMPANY_RATE_LIMIT_MAX per window), counted over
 * all its people's sessions and its API key together, besides the address's: a busy company is
 * slowed down without slowing any other, even one calling from the same address.
 */
const COMPANY_LIMIT = 5;
let world: World;

beforeAll(async () => {
  world = await createWorld({ COMPANY_RATE_LIMIT_MAX: String(COMPANY_LIMIT) });
}, 120_000);
afterAll(async () => world?.close());

const profile = (token: string) => world.request(token, { method: 'GET', url: '/api/users/profile' });

test('company A using up its requests gets 429s; company B, from the same address, does not', async () => {
  const statuses: number[] = [];
  for (let i = 0; i < COMPANY_LIMIT + 1; i++) statuses.push((await profile(world.users.A.USER.token)).statusCode);
  expect(statuses).toEqual([...Array<number>(COMPANY_LIMIT).fill(200), 429]);

  // The bucket is the company's: A's other people and A's integration (its API key) are over it too.
  const admin = await profile(world.users.A.ADMIN.token);
  expect(admin.statusCode).toBe(429);
  expect(admin.json()).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringMatching(/your company/) });
  expect(Number(admin.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  const keyed = await world.requestWithKey(world.companies.A.apiKey, { method: 'GET', url: '/api/transcripts/status' });
  expect(keyed.statusCode).toBe(429);

  // Company B and the platform administrator (no company) are served as usual.
  for (let i = 0; i < COMPANY_LIMIT - 1; i++) expect((await profile(world.users.B.CALLER.token)).statusCode).toBe(200);
  const keyedB = await world.requestWithKey(world.companies.B.apiKey, {
    method: 'GET',
    url: '/api/transcripts/status',
  });
  expect(keyedB.statusCode).toBe(200);
  expect((await profile(world.host.token)).statusCode).toBe(200);
}, 60_000);
