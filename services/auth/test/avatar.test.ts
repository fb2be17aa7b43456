import { multipart, type TestStack } from '@earshot/kit/testing';
import { Browser, PASSWORD, authStack, createCompany, createUser, outboxEvents } from './helpers';

/** A 1×1 PNG: recognised by its bytes. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const SVG = Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>');

let stack: TestStack;
let acme: string;
let globex: string;

beforeAll(async () => {
  stack = await authStack();
  acme = await createCompany(stack, { domain: 'acme' });
  globex = await createCompany(stack, { domain: 'globex' });
});
afterAll(async () => stack.close());

let n = 0;
async function signedIn(companyId: string): Promise<{ browser: Browser; id: string }> {
  const email = `avatar${++n}@example.test`;
  const id = await createUser(stack, { email, role: 'USER', companyId });
  const browser = new Browser(stack, `10.9.0.${n}`);
  expect((await browser.request('POST', '/api/auth/login', { email, password: PASSWORD })).statusCode).toBe(200);
  return { browser, id };
}

const upload = (browser: Browser, data: Buffer, name = 'me.png', type = 'image/png') => {
  const { payload, headers } = multipart({}, { name, type, data });
  return browser.request('POST', '/api/users/profile/avatar', payload, { headers });
};

test('an uploaded picture becomes the avatar, served to colleagues by its bytes, and not to another company', async () => {
  const me = await signedIn(acme);
  const res = await upload(me.browser, PNG);
  expect(res.statusCode).toBe(200);
  const { avatar } = res.json() as { avatar: string };
  expect(avatar).toMatch(new RegExp(`^/api/users/avatars/${me.id}\\?v=\\d+$`));
  expect((await me.browser.request('GET', '/api/users/profile')).json().avatar).toBe(avatar);

  const colleague = await signedIn(acme);
  const image = await colleague.browser.request('GET', avatar);
  expect(image.statusCode).toBe(200);
  expect(image.headers['content-type']).toBe('image/png');
  expect(image.headers['x-content-type-options']).toBe('nosniff');
  expect(image.rawPayload.equals(PNG)).toBe(true);

  const stranger = await signedIn(globex);
  expect((await stranger.browser.request('GET', avatar)).statusCode).toBe(404);
  expect((await new Browser(stack).request('GET', avatar)).statusCode).toBe(401);

  const [event] = (await outboxEvents(stack, 'user.updated')).filter((e) => e.data.id === me.id);
  expect(event?.data).toMatchObject({ before: { avatar: null }, after: { avatar } });
});

test('a new picture gets a new address; removing it leaves no picture to fetch', async () => {
  const me = await signedIn(acme);
  const first = (await upload(me.browser, PNG)).json().avatar as string;
  await stack.database.query(
    `update auth.avatars set updated_at = updated_at - interval '1 minute' where user_id = $1`,
    [me.id],
  );
  const second = (await upload(me.browser, PNG)).json().avatar as string;
  expect(second).not.toBe(first);

  const removed = await me.browser.request('DELETE', '/api/users/profile/avatar');
  expect(removed.statusCode).toBe(200);
  expect(removed.json().avatar).toBeNull();
  expect((await me.browser.request('GET', second)).statusCode).toBe(404);
});

test('SVG, text posing as PNG, an empty or too large file are refused on the field; the old picture stays', async () => {
  const me = await signedIn(acme);
  const kept = (await upload(me.browser, PNG)).json().avatar as string;

  const svg = await upload(me.browser, SVG, 'me.svg', 'image/svg+xml');
  expect(svg.statusCode).toBe(415);
  expect(svg.json().message).toMatch(/SVG images are not accepted/);
  expect(svg.json().details).toEqual([expect.objectContaining({ field: 'file' })]);

  const text = await upload(me.browser, Buffer.from('just some words, not an image'));
  expect(text.statusCode).toBe(415);
  expect(text.json().message).toBe('Invalid file: the image must be a PNG, JPEG, WebP or ICO file');

  expect((await upload(me.browser, Buffer.alloc(0))).statusCode).toBe(400);

  const large = await upload(me.browser, Buffer.concat([PNG, Buffer.alloc(1024 * 1024)]));
  expect(large.statusCode).toBe(413);
  expect(large.json().message).toBe('Invalid file: the image must be at most 1 MB');

  const json = await me.browser.request('POST', '/api/users/profile/avatar', { file: 'x' });
  expect(json.statusCode).toBe(415);

  expect((await me.browser.request('GET', '/api/users/profile')).json().avatar).toBe(kept);
  expect((await me.browser.request('GET', kept)).statusCode).toBe(200);
});

test('the picture goes with its user', async () => {
  const me = await signedIn(acme);
  await upload(me.browser, PNG);
  await stack.database.query('delete from auth.users where id = $1', [me.id]);
  const rows = await stack.database.query('select 1 from auth.avatars where user_id = $1', [me.id]);
  expect(rows).toHaveLength(0);
});

test('an avatar address must be one of ours, an uploaded image or https', async () => {
  const me = await signedIn(acme);
  for (const avatar of [
    `/api/users/avatars/${me.id}`,
    `/api/users/avatars/../files?v=1`,
    'http://example.test/me.png',
    'javascript:alert(1)',
  ]) {
    expect((await me.browser.request('PUT', '/api/users/profile', { avatar })).statusCode).toBe(400);
  }
  expect(
    (await me.browser.request('PUT', '/api/users/profile', { avatar: `/api/users/avatars/${me.id}?v=1` })).statusCode,
  ).toBe(200);
});
