import { createWorld, type World } from './world';

/**
 * Every signed-in person has a request bucket of their own (USER_RATE_LIMIT_MAX per window),
 * whatever address they call from, besides their company's; their session is not counted in the
 * address's bucket, so many people behind one office address are each limited on their own. Here
 * every request comes from one address, whose own limit is lower than one person's. A token or key
 * that does not verify is counted in its address's bucket before it is refused.
 */
const USER_LIMIT = 10;
const ADDRESS_LIMIT = 3;
let world: World;

beforeAll(async () => {
  // The world's setup (the platform administrator's 8 requests) stays within one person's bucket;
  // the company's bucket is out of the way (company-rate-limit.test.ts tests it).
  world = await createWorld({
    USER_RATE_LIMIT_MAX: String(USER_LIMIT),
    RATE_LIMIT_MAX: String(ADDRESS_LIMIT),
    COMPANY_RATE_LIMIT_MAX: '1000',
  });
}, 120_000);
afterAll(async () => world?.close());

const profile = (token: string | null) => world.request(token, { method: 'GET', url: '/api/users/profile' });

test('user X of company A using up their requests gets 429s; user Y of A, from the same address, does not', async () => {
  const statuses: number[] = [];
  for (let i = 0; i < USER_LIMIT + 1; i++) statuses.push((await profile(world.users.A.USER.token)).statusCode);
  // More than the address's limit passed: a session is counted by its person, not its address.
  expect(statuses).toEqual([...Array<number>(USER_LIMIT).fill(200), 429]);
  const refused = await profile(world.users.A.USER.token);
  expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringMatching(/your account/) });
  expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);

  // The bucket is the person's: another person of the same company and address is served.
  for (let i = 0; i < USER_LIMIT - 1; i++) expect((await profile(world.users.A.ADMIN.token)).statusCode).toBe(200);
});

test('requests without a verified session are still counted per address', async () => {
  const statuses: number[] = [];
  for (let i = 0; i < ADDRESS_LIMIT + 1; i++)
    statuses.push((await world.request(null, { method: 'GET', url: '/api/auth/jwks' })).statusCode);
  expect(statuses).toEqual([...Array<number>(ADDRESS_LIMIT).fill(200), 429]);
  // A signed-in person at that address is not held by it.
  expect((await profile(world.users.B.CALLER.token)).statusCode).toBe(200);
});

test('a token or API key that does not verify is counted in its address’s bucket before its 401', async () => {
  const guesser = '127.0.0.20';
  const guess = (remoteAddress: string) =>
    world.request('not-a-token', { method: 'GET', url: '/api/users/profile', remoteAddress });
  const statuses: number[] = [];
  for (let i = 0; i < ADDRESS_LIMIT + 1; i++) statuses.push((await guess(guesser)).statusCode);
  expect(statuses).toEqual([...Array<number>(ADDRESS_LIMIT).fill(401), 429]);
  const refused = await guess(guesser);
  expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringMatching(/retry in/) });
  expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(refused.headers['x-ratelimit-limit']).toBe(String(ADDRESS_LIMIT));
  const wrongKey = await world.requestWithKey('not-a-key', {
    method: 'GET',
    url: '/api/files',
    remoteAddress: guesser,
  });
  expect(wrongKey.statusCode).toBe(429);

  // Another address has a bucket of its own, and a signed-in person there is served.
  expect((await guess('127.0.0.21')).statusCode).toBe(401);
  const person = await world.request(world.users.B.ADMIN.token, {
    method: 'GET',
    url: '/api/users/profile',
    remoteAddress: '127.0.0.21',
  });
  expect(person.statusCode).toBe(200);
});
