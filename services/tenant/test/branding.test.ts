import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BRANDING_MAX_BYTES, type Envelope } from '@earshot/contracts';
import { createTestStack, type TestStack } from '@earshot/kit/testing';
import { filesUnder, multipart } from '../../file/test/helpers';
import { tenantService } from '../src';

// Company images: recognised by content, stored through the kit's storage, served publicly.
let stack: TestStack;
let host: string;
let companyId: string;
const images: Record<'png' | 'jpg' | 'webp' | 'ico', Buffer> = {} as never;
const seen: Envelope[] = [];

beforeAll(async () => {
  // Real images, made on the spot (ffmpeg also makes the test audio).
  const dir = mkdtempSync(join(tmpdir(), 'earshot-images-'));
  for (const ext of ['png', 'jpg', 'webp', 'ico'] as const) {
    execFileSync('ffmpeg', [
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'color=c=red:s=16x16',
      '-frames:v',
      '1',
      join(dir, `x.${ext}`),
    ]);
    images[ext] = readFileSync(join(dir, `x.${ext}`));
  }
  rmSync(dir, { recursive: true, force: true });
  stack = await createTestStack([tenantService]);
  await stack.bus.subscribe({
    group: 'test-observer',
    topics: ['earshot.tenant'],
    handle: async (e) => void seen.push(e),
  });
  host = await stack.tokenFor('HOST_ADMIN', null);
  const res = await stack.as(host, {
    method: 'POST',
    url: '/api/companies',
    payload: { name: 'Brand Co', code: 'BRAND', domain: 'brand' },
  });
  companyId = res.json()._id;
}, 60_000);
afterAll(async () => stack.close());

function upload(data: Buffer | string, query: string, options: { token?: string; field?: string } = {}) {
  const { payload, headers } = multipart([
    { name: options.field ?? 'file', value: data, filename: 'picture.png', contentType: 'image/png' },
  ]);
  return stack.as(options.token ?? host, { method: 'POST', url: `/api/companies/upload?${query}`, payload, headers });
}

const objects = () => filesUnder(join(stack.dataDir, 'objects', 'branding'));

test.each(['png', 'jpg', 'webp', 'ico'] as const)(
  'a %s image is stored, set on the company and served publicly with its type',
  async (ext) => {
    const res = await upload(images[ext], `companyId=${companyId}&kind=logo`);
    expect(res.statusCode).toBe(201);
    const { url } = res.json();
    expect(url).toMatch(new RegExp(`^/api/companies/assets/[0-9a-f-]{36}\\.${ext}$`));
    expect((await stack.as(host, { method: 'GET', url: `/api/companies/${companyId}` })).json().logo).toBe(url);

    const served = await stack.as(null, { method: 'GET', url });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(images[ext])).toBe(true);
    expect(served.headers['content-type']).toBe(
      { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp', ico: 'image/x-icon' }[ext],
    );
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  },
);

test('replacing an image removes the old one; the change is a company.updated event', async () => {
  const first = (await upload(images.png, `companyId=${companyId}&kind=favIcon`)).json().url as string;
  const second = (await upload(images.ico, `companyId=${companyId}&kind=favIcon`)).json().url as string;
  expect((await stack.as(null, { method: 'GET', url: first })).statusCode).toBe(404);
  expect((await stack.as(null, { method: 'GET', url: second })).statusCode).toBe(200);
  // The logo uploads above replaced each other too: one logo and one favicon are left.
  expect(objects()).toHaveLength(2);
  await stack.settle();
  const event = seen.findLast((e) => e.type === 'company.updated' && e.companyId === companyId)!;
  expect(event.data).toMatchObject({ before: { favIcon: first }, after: { favIcon: second } });
  // A form that sends the company back as it got it passes validation.
  expect(
    (await stack.as(host, { method: 'PUT', url: `/api/companies/${companyId}`, payload: { favIcon: second } }))
      .statusCode,
  ).toBe(200);
});

test('SVG, other content whatever its name, an empty or missing file are refused naming the field; nothing is stored', async () => {
  const before = objects();
  const svg = await upload(
    '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    `companyId=${companyId}&kind=logo`,
  );
  expect(svg.statusCode).toBe(415);
  expect(svg.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', details: [{ field: 'file' }] });
  expect(svg.json().message).toMatch(/SVG/);
  const text = await upload('GIF89a? no, just text pretending', `companyId=${companyId}&kind=logo`);
  expect(text.statusCode).toBe(415);
  expect(text.json().message).toMatch(/PNG, JPEG, WebP or ICO/);
  expect((await upload(Buffer.alloc(0), `companyId=${companyId}&kind=logo`)).statusCode).toBe(400);
  const wrongField = await upload(images.png, `companyId=${companyId}&kind=logo`, { field: 'image' });
  expect(wrongField.statusCode).toBe(400);
  expect(wrongField.json().details).toEqual([{ field: 'file', message: expect.any(String) }]);
  const json = await stack.as(host, {
    method: 'POST',
    url: `/api/companies/upload?companyId=${companyId}&kind=logo`,
    payload: { file: 'x' },
  });
  expect(json.statusCode).toBe(415);
  expect(objects()).toEqual(before);
});

test(`an image over ${BRANDING_MAX_BYTES / 1024 / 1024} MB is a 413; nothing is stored`, async () => {
  const before = objects();
  const big = Buffer.concat([images.png, Buffer.alloc(BRANDING_MAX_BYTES)]);
  const res = await upload(big, `companyId=${companyId}&kind=mainPageLogo`);
  expect(res.statusCode).toBe(413);
  expect(objects()).toEqual(before);
});

test('bad query, unknown company, other roles, unknown asset names', async () => {
  expect((await upload(images.png, `companyId=${companyId}&kind=banner`)).json()).toMatchObject({
    code: 'VALIDATION_FAILED',
    details: [{ field: 'query.kind' }],
  });
  expect((await upload(images.png, `companyId=${crypto.randomUUID()}&kind=logo`)).statusCode).toBe(404);
  expect(
    (await upload(images.png, `companyId=${companyId}&kind=logo`, { token: await stack.tokenFor('ADMIN', companyId) }))
      .statusCode,
  ).toBe(403);
  expect(
    (await stack.as(null, { method: 'GET', url: `/api/companies/assets/${crypto.randomUUID()}.png` })).statusCode,
  ).toBe(404);
  expect(
    (await stack.as(null, { method: 'GET', url: '/api/companies/assets/..%2F..%2Fetc%2Fpasswd' })).statusCode,
  ).toBe(400);
});

test('deleting the company removes its images', async () => {
  const res = await stack.as(host, {
    method: 'POST',
    url: '/api/companies',
    payload: { name: 'Gone Co', code: 'GONE', domain: 'gone' },
  });
  const gone = res.json()._id as string;
  const { url } = (await upload(images.png, `companyId=${gone}&kind=logo`)).json();
  expect((await stack.as(host, { method: 'DELETE', url: `/api/companies/${gone}` })).statusCode).toBe(202);
  expect((await upload(images.png, `companyId=${gone}&kind=logo`)).statusCode).toBe(409);
  await stack.settle();
  expect((await stack.as(null, { method: 'GET', url })).statusCode).toBe(404);
  // The other company's images stay.
  expect(
    (
      await stack.as(null, {
        method: 'GET',
        url: (await stack.as(host, { method: 'GET', url: `/api/companies/${companyId}` })).json().favIcon,
      })
    ).statusCode,
  ).toBe(200);
});
