import { ACCESS_COOKIE } from '@earshot/kit';
import type { TestStack } from '@earshot/kit/testing';
import { generateSync } from 'otplib';
import { describeDevice } from '../src/services/devices';
import { Browser, PASSWORD, authStack, createCompany, createUser, outboxEvents } from './helpers';

/** What the person's authenticator app shows (now, or at another time). */
const totp = (secret: string, now = Date.now()) =>
  generateSync({ strategy: 'totp', secret, epoch: Math.floor(now / 1000) });

const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const EDGE_WINDOWS = `${CHROME_WINDOWS} Edg/131.0.0.0`;

let stack: TestStack;
let acme: string;

beforeAll(async () => {
  stack = await authStack();
  acme = await createCompany(stack, { domain: 'acme' });
});
afterAll(async () => stack.close());

let n = 0;
async function person(role: 'ADMIN' | 'USER' | 'CALLER' = 'USER') {
  const email = `account${++n}@acme.test`;
  await createUser(stack, { email, role, companyId: acme });
  return email;
}

/** A browser of that person, signed in. */
async function signedIn(email: string, ip: string, userAgent?: string): Promise<Browser> {
  const browser = new Browser(stack, ip, userAgent);
  const res = await browser.request('POST', '/api/auth/login', { email, password: PASSWORD });
  expect(res.statusCode).toBe(200);
  return browser;
}

interface Session {
  _id: string;
  device: string;
  address: string;
  current: boolean;
  lastSeenAt: string;
  createdAt: string;
}
const sessionsOf = async (browser: Browser) =>
  (await browser.request('GET', '/api/users/sessions')).json() as Session[];
const profileStatus = async (browser: Browser) => (await browser.request('GET', '/api/users/profile')).statusCode;

test('a user agent is named as people know their devices', () => {
  expect(describeDevice(FIREFOX_LINUX)).toBe('Firefox on Linux');
  expect(describeDevice(CHROME_WINDOWS)).toBe('Chrome on Windows');
  expect(describeDevice(EDGE_WINDOWS)).toBe('Edge on Windows');
  expect(describeDevice(SAFARI_IPHONE)).toBe('Safari on iPhone');
  expect(describeDevice('')).toBe('Unknown device');
});

describe('sessions', () => {
  test('the list shows each live session with device, address and which one is this', async () => {
    const email = await person();
    const laptop = await signedIn(email, '10.1.0.1', FIREFOX_LINUX);
    await signedIn(email, '10.1.0.2', CHROME_WINDOWS);
    const list = await sessionsOf(laptop);
    expect(list).toHaveLength(2);
    expect(list.find((s) => s.current)).toMatchObject({ device: 'Firefox on Linux', address: '10.1.0.1' });
    expect(list.find((s) => !s.current)).toMatchObject({ device: 'Chrome on Windows', address: '10.1.0.2' });
    // A refresh is the session being seen again, from where it came.
    await stack.database.query(
      `update auth.sessions set last_seen_at = now() - interval '2 days' where address = '10.1.0.1'`,
    );
    expect((await laptop.request('POST', '/api/auth/refresh')).statusCode).toBe(200);
    const seen = (await sessionsOf(laptop)).find((s) => s.current)!;
    expect(Date.now() - Date.parse(seen.lastSeenAt)).toBeLessThan(86_400_000);
    // Signed out: gone from the list.
    await laptop.request('POST', '/api/auth/logout');
    const phone = await signedIn(email, '10.1.0.3', SAFARI_IPHONE);
    expect((await sessionsOf(phone)).map((s) => s.address).sort()).toEqual(['10.1.0.2', '10.1.0.3']);
  });

  test('signing one session out refuses its access token at once, and its refresh token', async () => {
    const email = await person();
    const mine = await signedIn(email, '10.2.0.1');
    const other = await signedIn(email, '10.2.0.2');
    const target = (await sessionsOf(mine)).find((s) => !s.current)!;
    expect(await profileStatus(other)).toBe(200);
    expect((await mine.request('DELETE', `/api/users/sessions/${target._id}`)).statusCode).toBe(204);
    expect(await profileStatus(other)).toBe(401);
    expect((await other.request('POST', '/api/auth/refresh')).statusCode).toBe(401);
    expect(await profileStatus(mine)).toBe(200);
    expect((await sessionsOf(mine)).map((s) => s.current)).toEqual([true]);
    // Ended already: not found.
    expect((await mine.request('DELETE', `/api/users/sessions/${target._id}`)).statusCode).toBe(404);
    const ended = await outboxEvents(stack, 'user.sessions_ended');
    expect(
      ended.some((e) => (e.data.sessionIds as string[]).includes(target._id) && e.data.reason === 'signed_out'),
    ).toBe(true);
  });

  test("someone else's session is a 404 and stays signed in", async () => {
    const mine = await signedIn(await person(), '10.3.0.1');
    const theirs = await signedIn(await person('ADMIN'), '10.3.0.2');
    const theirId = (await sessionsOf(theirs))[0]!._id;
    const res = await mine.request('DELETE', `/api/users/sessions/${theirId}`);
    expect(res.statusCode).toBe(404);
    expect(await profileStatus(theirs)).toBe(200);
    expect((await mine.request('DELETE', '/api/users/sessions/not-an-id')).statusCode).toBe(400);
  });

  test('sign out everywhere else ends every other session, not this one', async () => {
    const email = await person('CALLER');
    const here = await signedIn(email, '10.4.0.1');
    const others = [await signedIn(email, '10.4.0.2'), await signedIn(email, '10.4.0.3')];
    const res = await here.request('POST', '/api/users/sessions/revoke-others');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ revoked: 2 });
    for (const browser of others) expect(await profileStatus(browser)).toBe(401);
    expect(await profileStatus(here)).toBe(200);
    expect(await sessionsOf(here)).toHaveLength(1);
  });

  test('changing the password ends the other sessions', async () => {
    const email = await person();
    const here = await signedIn(email, '10.5.0.1');
    const there = await signedIn(email, '10.5.0.2');
    const res = await here.request('PUT', '/api/users/password', {
      currentPassword: PASSWORD,
      newPassword: 'a brand new passphrase',
    });
    expect(res.statusCode).toBe(200);
    expect(await profileStatus(there)).toBe(401);
    expect(await profileStatus(here)).toBe(200);
    const wrong = await here.request('PUT', '/api/users/password', {
      currentPassword: 'not it at all',
      newPassword: 'another new passphrase',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().details).toEqual([expect.objectContaining({ field: 'body.currentPassword' })]);
  });
});

describe('profile', () => {
  test('the language is kept, and a sign-in on another browser brings it; an unknown one is refused on its field', async () => {
    const email = await person();
    const browser = await signedIn(email, '10.6.0.1');
    expect((await browser.request('GET', '/api/users/profile')).json().language).toBeNull();
    const res = await browser.request('PUT', '/api/users/profile', { firstName: 'Aino', language: 'et' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ firstName: 'Aino', language: 'et' });
    const other = await new Browser(stack, '10.6.0.2').request('POST', '/api/auth/login', {
      email,
      password: PASSWORD,
    });
    expect(other.json().user).toMatchObject({ firstName: 'Aino', language: 'et' });
    const bad = await browser.request('PUT', '/api/users/profile', { language: 'de' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toEqual([expect.objectContaining({ field: 'body.language' })]);
  });
});

describe('two-step verification', () => {
  test('set up, turn on with a code, sign in with a code or a recovery code (once), turn off with a code', async () => {
    const email = await person('ADMIN');
    const browser = await signedIn(email, '10.7.0.1');
    const setup = await browser.request('POST', '/api/users/two-step/setup');
    expect(setup.statusCode).toBe(200);
    const { secret, otpauthUrl } = setup.json() as { secret: string; otpauthUrl: string };
    expect(otpauthUrl).toContain(`secret=${secret}`);
    const enabled = await browser.request('POST', '/api/users/two-step/enable', { code: totp(secret) });
    expect(enabled.statusCode).toBe(200);
    const codes = enabled.json().recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/);
    // Hashed at rest.
    const stored = await stack.database.query<{ code_hash: string }>(
      `select code_hash from auth.two_step_recovery_codes`,
    );
    expect(stored.map((r) => r.code_hash).join()).not.toContain(codes[0]!.replace('-', ''));

    // Sign-in now asks for the code; a recovery code answers it, once (in capitals, without the dash too).
    const away = new Browser(stack, '10.7.0.2');
    expect((await away.request('POST', '/api/auth/login', { email, password: PASSWORD })).json()).toEqual({
      twoStepRequired: true,
    });
    expect(
      (await away.request('POST', '/api/auth/two-step/verify', { code: codes[0]!.toUpperCase().replace('-', '') }))
        .statusCode,
    ).toBe(200);
    expect(await profileStatus(away)).toBe(200);
    const again = new Browser(stack, '10.7.0.3');
    await again.request('POST', '/api/auth/login', { email, password: PASSWORD });
    expect((await again.request('POST', '/api/auth/two-step/verify', { code: codes[0] })).statusCode).toBe(401);
    expect((await again.request('POST', '/api/auth/two-step/verify', { code: 'not a code' })).statusCode).toBe(400);
    expect((await again.request('POST', '/api/auth/two-step/verify', { code: codes[1] })).statusCode).toBe(200);

    // Off needs a current code: a wrong one is refused on its field, and two-step stays on.
    const wrongCode = totp(secret) === '000000' ? '111111' : '000000';
    const wrong = await browser.request('POST', '/api/users/two-step/disable', { code: wrongCode });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().details).toEqual([expect.objectContaining({ field: 'body.code' })]);
    expect((await browser.request('GET', '/api/users/profile')).json().twoStepEnabled).toBe(true);
    // The enable step was claimed: the next step's code is fresh.
    expect(
      (await browser.request('POST', '/api/users/two-step/disable', { code: totp(secret, Date.now() + 30_000) }))
        .statusCode,
    ).toBe(200);
    expect((await browser.request('GET', '/api/users/profile')).json().twoStepEnabled).toBe(false);
    // Off: the recovery codes are gone, and sign-in asks for the password only.
    expect(await stack.database.query(`select 1 from auth.two_step_recovery_codes`)).toHaveLength(0);
    const plain = new Browser(stack, '10.7.0.4');
    expect((await plain.request('POST', '/api/auth/login', { email, password: PASSWORD })).json().user.email).toBe(
      email,
    );
    expect(plain.cookie(ACCESS_COOKIE)).toBeDefined();
    // The tenant service mails on these (two-step turned on / off).
    const changes = (await outboxEvents(stack, 'user.two_step_changed')).filter((e) => e.actor.email === email);
    expect(changes.map((e) => e.data.enabled)).toEqual([true, false]);
  });
});

describe('support contacts', () => {
  test("a company's people see its active administrators, nobody else's", async () => {
    const other = await createCompany(stack, { domain: 'globex' });
    await createUser(stack, {
      email: 'helper@acme.test',
      role: 'ADMIN',
      companyId: acme,
      firstName: 'Helga',
      lastName: 'Helper',
    });
    await createUser(stack, { email: 'boss@globex.test', role: 'ADMIN', companyId: other });
    const browser = await signedIn(await person('CALLER'), '10.8.0.1');
    const res = await browser.request('GET', '/api/users/support-contacts');
    expect(res.statusCode).toBe(200);
    const contacts = res.json() as { name: string; email: string }[];
    expect(contacts).toContainEqual({ name: 'Helga Helper', email: 'helper@acme.test' });
    expect(contacts.every((c) => c.email.endsWith('@acme.test'))).toBe(true);
  });
});

test('headless Chrome is Chrome too', () => {
  expect(
    describeDevice(
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
    ),
  ).toBe('Chrome on Linux');
});
