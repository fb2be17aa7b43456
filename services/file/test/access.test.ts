import { randomUUID } from 'node:crypto';
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import { ACCESS_COOKIE } from '@earshot/kit';
import { createTestStack, serveUnmeteredCredits, type TestStack } from '@earshot/kit/testing';
import { fileService } from '../src';
import { announceCompany, makeAudioFixtures, uploadRequest, type Fixture } from './helpers';

jest.setTimeout(60_000);

const ACME = randomUUID();
const GLOBEX = randomUUID();
let stack: TestStack;
let audio: Record<Fixture, Buffer>;
let acme: string;
let globex: string;
let host: string;
let wav: { _id: string; path: string; url: string; size: number };
let mp3: { _id: string; path: string; url: string };

beforeAll(async () => {
  audio = makeAudioFixtures('the quick brown fox jumps over the lazy dog');
  stack = await createTestStack([fileService]);
  // No tenant service in this stack: nothing here is metered.
  serveUnmeteredCredits(stack.database);
  await announceCompany(stack, ACME, null);
  await announceCompany(stack, GLOBEX, null);
  acme = await stack.tokenFor('CALLER', ACME);
  globex = await stack.tokenFor('ADMIN', GLOBEX);
  host = await stack.tokenFor('HOST_ADMIN', null);
  wav = (await stack.as(acme, uploadRequest(audio.wav, 'call.wav'))).json();
  mp3 = (await stack.as(acme, uploadRequest(audio.mp3, 'meeting.mp3'))).json();
  await stack.as(globex, uploadRequest(audio.ogg, 'globex.ogg'));
});
afterAll(async () => stack?.close());

describe('list and get', () => {
  test('a company sees its own files, newest first, with transcription status pending', async () => {
    const res = await stack.as(acme, { method: 'GET', url: '/api/files' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ page: 1, pageSize: 20, total: 2, totalPages: 1 });
    expect(body.items.map((i: { originalName: string }) => i.originalName)).toEqual(['meeting.mp3', 'call.wav']);
    expect(body.items[1]).toEqual({
      _id: wav._id,
      companyId: ACME,
      originalName: 'call.wav',
      filename: wav._id,
      size: audio.wav.length,
      mimeType: 'audio/wav',
      uploadDate: expect.any(String),
      status: 'completed',
      transcriptionStatus: 'pending',
      transcriptionError: null,
      clientId: null,
      url: wav.url,
      path: wav.path,
      tags: [],
      language: null,
      expectedSpeakers: null,
      speakers: [],
      hold: false,
      holdReason: null,
      holdAt: null,
    });
  });

  test('pagination', async () => {
    const res = await stack.as(acme, { method: 'GET', url: '/api/files?page=2&pageSize=1' });
    expect(res.json()).toMatchObject({
      page: 2,
      pageSize: 1,
      total: 2,
      totalPages: 2,
      items: [{ originalName: 'call.wav' }],
    });
    expect((await stack.as(acme, { method: 'GET', url: '/api/files?pageSize=0' })).statusCode).toBe(400);
    expect((await stack.as(acme, { method: 'GET', url: '/api/files?sort=name' })).statusCode).toBe(400);
  });

  test('another company neither lists nor gets them (404), even naming the company', async () => {
    const list = await stack.as(globex, { method: 'GET', url: `/api/files?companyId=${ACME}` });
    expect(list.json().items.map((i: { originalName: string }) => i.originalName)).toEqual(['globex.ogg']);
    const get = await stack.as(globex, { method: 'GET', url: `/api/files/${wav._id}` });
    expect(get.statusCode).toBe(404);
    expect(get.body).not.toContain('call.wav');
    expect((await stack.as(acme, { method: 'GET', url: `/api/files/${wav._id}` })).json().originalName).toBe(
      'call.wav',
    );
    expect((await stack.as(acme, { method: 'GET', url: `/api/files/${randomUUID()}` })).statusCode).toBe(404);
    expect((await stack.as(acme, { method: 'GET', url: '/api/files/not-a-uuid' })).statusCode).toBe(400);
  });

  test('a HOST_ADMIN sees every company, or the one named', async () => {
    expect((await stack.as(host, { method: 'GET', url: '/api/files' })).json().total).toBe(3);
    const one = await stack.as(host, { method: 'GET', url: `/api/files?companyId=${GLOBEX}` });
    expect(one.json().items.map((i: { originalName: string }) => i.originalName)).toEqual(['globex.ogg']);
    expect((await stack.as(host, { method: 'GET', url: `/api/files/${wav._id}` })).statusCode).toBe(200);
  });

  test('a signed-in user without a company sees nothing', async () => {
    const lost = await stack.tokenFor('USER', null);
    expect((await stack.as(lost, { method: 'GET', url: '/api/files' })).json()).toMatchObject({ total: 0, items: [] });
    expect((await stack.as(lost, { method: 'GET', url: `/api/files/${wav._id}` })).statusCode).toBe(404);
    expect((await stack.as(lost, { method: 'GET', url: wav.url })).statusCode).toBe(404);
  });

  test('anonymous is 401 everywhere', async () => {
    for (const url of ['/api/files', `/api/files/${wav._id}`, wav.url]) {
      expect((await stack.as(null, { method: 'GET', url })).statusCode).toBe(401);
    }
  });
});

describe('audio streaming', () => {
  test('the whole file with its type, length and Accept-Ranges', async () => {
    const res = await stack.as(acme, { method: 'GET', url: wav.url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('audio/wav');
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers['content-length']).toBe(String(audio.wav.length));
    expect(res.rawPayload.equals(audio.wav)).toBe(true);
    const mp3Res = await stack.as(acme, { method: 'GET', url: mp3.url });
    expect(mp3Res.headers['content-type']).toBe('audio/mpeg');
    expect(mp3Res.rawPayload.equals(audio.mp3)).toBe(true);
  });

  test('the browser audio element gets it with the session cookie', async () => {
    const res = await stack.app.inject({
      method: 'GET',
      url: wav.url,
      headers: { cookie: `${ACCESS_COOKIE}=${acme}`, range: 'bytes=0-99' },
    });
    expect(res.statusCode).toBe(206);
    expect(res.rawPayload.equals(audio.wav.subarray(0, 100))).toBe(true);
    const other = await stack.app.inject({
      method: 'GET',
      url: wav.url,
      headers: { cookie: `${ACCESS_COOKIE}=${globex}` },
    });
    expect(other.statusCode).toBe(404);
  });

  test.each([
    ['bytes=0-0', 0, 0],
    ['bytes=100-1123', 100, 1123],
    ['bytes=1000-', 1000, null],
    ['bytes=-500', null, null],
  ])('Range %s returns exactly those bytes with 206', async (range, start, end) => {
    const size = audio.wav.length;
    const from = start ?? size - 500;
    const to = end ?? size - 1;
    const res = await stack.as(acme, { method: 'GET', url: wav.url, headers: { range } });
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-range']).toBe(`bytes ${from}-${to}/${size}`);
    expect(res.headers['content-length']).toBe(String(to - from + 1));
    expect(res.rawPayload.equals(audio.wav.subarray(from, to + 1))).toBe(true);
  });

  test('a range past the end is clamped to the end', async () => {
    const size = audio.wav.length;
    const res = await stack.as(acme, {
      method: 'GET',
      url: wav.url,
      headers: { range: `bytes=${size - 10}-${size + 5000}` },
    });
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-range']).toBe(`bytes ${size - 10}-${size - 1}/${size}`);
    expect(res.rawPayload.equals(audio.wav.subarray(size - 10))).toBe(true);
  });

  test.each(['bytes=999999999-', 'bytes=-0', 'bytes=500-100', 'bytes=abc-def', 'bytes=-'])(
    'unsatisfiable %s is 416 with the size',
    async (range) => {
      const res = await stack.as(acme, { method: 'GET', url: wav.url, headers: { range } });
      expect(res.statusCode).toBe(416);
      expect(res.headers['content-range']).toBe(`bytes */${audio.wav.length}`);
    },
  );

  test('several ranges or another unit get the whole file', async () => {
    for (const range of ['bytes=0-10,20-30', 'items=0-5']) {
      const res = await stack.as(acme, { method: 'GET', url: wav.url, headers: { range } });
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.length).toBe(audio.wav.length);
    }
  });

  test('HEAD answers the headers only', async () => {
    const res = await stack.as(acme, { method: 'HEAD', url: wav.url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('audio/wav');
    expect(res.rawPayload.length).toBe(0);
  });

  test("another company's audio is 404, a HOST_ADMIN may play it", async () => {
    const res = await stack.as(globex, { method: 'GET', url: wav.url, headers: { range: 'bytes=0-10' } });
    expect(res.statusCode).toBe(404);
    expect(res.rawPayload.includes(audio.wav.subarray(0, 11))).toBe(false);
    expect((await stack.as(host, { method: 'GET', url: wav.url })).statusCode).toBe(200);
  });

  test('unknown keys and path traversal are 404 and never reach the disk', async () => {
    // Something worth stealing next to the objects folder.
    mkdirSync(join(stack.dataDir, 'objects'), { recursive: true });
    writeFileSync(join(stack.dataDir, 'secrets.json'), '{"secret":"do-not-serve"}');
    writeFileSync(join(stack.dataDir, 'objects', 'stray.wav'), audio.wav);
    const attempts = [
      `/api/uploads/${ACME}/${randomUUID()}`,
      '/api/uploads/..%2f..%2fsecrets.json',
      '/api/uploads/..%2Fsecrets.json',
      '/api/uploads/%2e%2e%2fsecrets.json',
      '/api/uploads/%2e%2e/%2e%2e/secrets.json',
      '/api/uploads/../secrets.json',
      '/api/uploads/..%252f..%252fsecrets.json',
      '/api/uploads/..%5c..%5csecrets.json',
      `/api/uploads/${ACME}/..%2f..%2fsecrets.json`,
      `/api/uploads/${wav.path.split('/')[0]}/..%2f${GLOBEX}`,
      '/api/uploads/%2fetc%2fpasswd',
      '/api/uploads//etc/passwd',
      '/api/uploads/stray.wav',
      '/api/uploads/.meta/' + wav.path,
      '/api/uploads/',
    ];
    for (const url of attempts) {
      const res = await stack.as(acme, { method: 'GET', url });
      expect([url, res.statusCode]).toEqual([url, 404]);
      expect(res.body).not.toContain('do-not-serve');
    }
    // A NUL byte is bad input anywhere (the shared schema rule), before any storage lookup.
    const nul = await stack.as(acme, { method: 'GET', url: `/api/uploads/${wav.path}%00` });
    expect(nul.statusCode).toBe(400);
    expect(nul.body).not.toContain('do-not-serve');
  });
});
