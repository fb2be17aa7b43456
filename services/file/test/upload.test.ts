import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { jest } from '@jest/globals';
import { UPLOAD_URL_PREFIX, type Envelope } from '@earshot/contracts';
import { createTestStack, serveUnmeteredCredits, type TestStack } from '@earshot/kit/testing';
import { fileService } from '../src';
import {
  announceCompany,
  filesUnder,
  streamingUpload,
  makeAudioFixtures,
  multipart,
  uploadRequest,
  wavHeader,
  type Fixture,
} from './helpers';

// Starting PGlite and encoding the fixtures takes a few seconds on a busy machine.
jest.setTimeout(60_000);

const COMPANY = randomUUID();
const MAX_UPLOAD = 3 * 1024 * 1024;
let stack: TestStack;
let audio: Record<Fixture, Buffer>;
let token: string;
const published: Envelope[] = [];

const objectsDir = () => join(stack.dataDir, 'objects');
const rows = async () => (await stack.database.query<{ id: string }>('select id from file.files')).length;

beforeAll(async () => {
  audio = makeAudioFixtures();
  // The JSON body limit stays 1 MiB; uploads may be up to MAX_UPLOAD_BYTES.
  stack = await createTestStack([fileService], { MAX_UPLOAD_BYTES: String(MAX_UPLOAD) });
  // No tenant service in this stack: nothing here is metered.
  serveUnmeteredCredits(stack.database);
  await stack.bus.subscribe({ group: 'spy', topics: ['earshot.file'], handle: async (e) => void published.push(e) });
  await announceCompany(stack, COMPANY, null);
  token = await stack.tokenFor('USER', COMPANY);
});
afterAll(async () => stack?.close());

describe('accepted audio', () => {
  test.each(['wav', 'mp3', 'ogg', 'opus', 'flac', 'm4a', 'webm', 'aac'] as const)(
    '%s is stored by content and recorded',
    async (kind) => {
      const before = published.length;
      const res = await stack.as(token, uploadRequest(audio[kind], `Recording.${kind}`));
      expect(res.statusCode).toBe(201);
      const body = res.json();
      expect(body).toMatchObject({ originalName: `Recording.${kind}`, size: audio[kind].length, status: 'completed' });
      expect(body.path).toBe(`${COMPANY}/${body._id}`);
      expect(body.filename).toBe(body._id);
      expect(body.url).toBe(UPLOAD_URL_PREFIX + body.path);
      expect(body.mimeType).toMatch(/^audio\//);
      expect(new Date(body.uploadDate).toString()).not.toBe('Invalid Date');
      // The bytes on disk are exactly the upload.
      expect(readFileSync(join(objectsDir(), body.path)).equals(audio[kind])).toBe(true);
      await stack.settle();
      const event = published.slice(before).find((e) => e.type === 'file.uploaded');
      expect(event).toMatchObject({
        companyId: COMPANY,
        data: {
          id: body._id,
          storageKey: body.path,
          originalName: `Recording.${kind}`,
          mimeType: body.mimeType,
          size: audio[kind].length,
          clientId: null,
        },
      });
      expect(event!.actor).toMatchObject({ type: 'user', role: 'USER' });
    },
  );

  test('the type comes from the content, not the name or the declared type', async () => {
    const res = await stack.as(token, uploadRequest(audio.flac, 'actually-flac.mp3'));
    expect(res.statusCode).toBe(201);
    expect(res.json().mimeType).toBe('audio/flac');
  });

  test('clientId is kept, before or after the file part', async () => {
    const clientId = randomUUID();
    const first = await stack.as(token, uploadRequest(audio.wav, 'a.wav', { clientId }));
    expect(first.statusCode).toBe(201);
    const { payload, headers } = multipart([
      { name: 'file', value: audio.wav, filename: 'b.wav' },
      { name: 'clientId', value: clientId },
    ]);
    const second = await stack.as(token, { method: 'POST', url: '/api/files/upload', payload, headers });
    expect(second.statusCode).toBe(201);
    for (const id of [first.json()._id, second.json()._id]) {
      expect((await stack.as(token, { method: 'GET', url: `/api/files/${id}` })).json().clientId).toBe(clientId);
    }
  });

  test('the original name is data only: folders and control characters are dropped, length bounded', async () => {
    const res = await stack.as(token, uploadRequest(audio.wav, `../../etc/\u202eevil\u0007${'x'.repeat(400)}.wav`));
    expect(res.statusCode).toBe(201);
    const { originalName, path } = res.json();
    expect(originalName.startsWith('evilxxx')).toBe(true);
    expect(originalName.endsWith('.wav')).toBe(true);
    expect([...originalName].length).toBeLessThanOrEqual(255);
    expect(path).not.toContain('evil');
  });

  test('a file of exactly MAX_UPLOAD_BYTES is accepted', async () => {
    const exact = await stack.as(
      token,
      uploadRequest(Buffer.concat([wavHeader(MAX_UPLOAD), Buffer.alloc(MAX_UPLOAD - 44)]), 'exact.wav'),
    );
    expect(exact.statusCode).toBe(201);
    expect(exact.json().size).toBe(MAX_UPLOAD);
  });

  test('an upload bigger than the 1 MiB JSON body limit streams through', async () => {
    const dataBytes = 2.5 * 1024 * 1024;
    const stream = Readable.from(
      (function* () {
        yield wavHeader(dataBytes);
        for (let sent = 0; sent < dataBytes; sent += 64 * 1024)
          yield Buffer.alloc(Math.min(64 * 1024, dataBytes - sent), sent % 251);
      })(),
    );
    const res = await stack.as(token, uploadRequest(stream, 'long.wav'));
    expect(res.statusCode).toBe(201);
    expect(res.json().size).toBe(44 + dataBytes);
  });
});

describe('rejected uploads leave nothing behind', () => {
  let objectsBefore: string[];
  let rowsBefore: number;
  beforeEach(async () => {
    objectsBefore = filesUnder(objectsDir()).sort();
    rowsBefore = await rows();
  });
  afterEach(async () => {
    expect(filesUnder(objectsDir()).sort()).toEqual(objectsBefore);
    expect(await rows()).toBe(rowsBefore);
  });

  test('a text file named .mp3 is 415', async () => {
    const res = await stack.as(
      token,
      uploadRequest(Buffer.from('This is not audio at all, just words in a text file.\n'.repeat(20)), 'song.mp3'),
    );
    expect(res.statusCode).toBe(415);
    expect(res.json().message).toBe('Only audio files can be uploaded (wav, mp3, m4a, aac, ogg, opus, webm, flac)');
  });

  test.each([
    ['an empty file', Buffer.alloc(0)],
    ['a PNG image', Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(100)])],
    [
      'a HEIC image (ftyp, image brand)',
      Buffer.concat([Buffer.from('00000018667479706865696300000000', 'hex'), Buffer.alloc(100)]),
    ],
    ['a short file', Buffer.from('RIFF')],
  ])('%s is 415', async (_name, data) => {
    expect((await stack.as(token, uploadRequest(data, 'x.wav'))).statusCode).toBe(415);
  });

  test('more than MAX_UPLOAD_BYTES is 413, answered while the client is still sending (real HTTP)', async () => {
    // A 30 MiB body against a 3 MiB limit over a real socket: the answer comes long before the end.
    const total = 10 * MAX_UPLOAD;
    const address = await stack.app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const { status, body, sentWhenAnswered } = await streamingUpload(`${address}/api/files/upload`, token, total);
      expect(status).toBe(413);
      expect(JSON.parse(body).message).toMatch(/larger than the upload limit of 3 MiB/);
      expect(sentWhenAnswered).toBeLessThan(total / 2);
    } finally {
      await stack.app.server.close();
    }
  });

  test('one byte over MAX_UPLOAD_BYTES is 413', async () => {
    const over = await stack.as(
      token,
      uploadRequest(Buffer.concat([wavHeader(MAX_UPLOAD), Buffer.alloc(MAX_UPLOAD - 43)]), 'over.wav'),
    );
    expect(over.statusCode).toBe(413);
  });

  test('a declared body far over the limit is refused before reading it', async () => {
    const { payload, headers } = multipart([{ name: 'file', value: audio.wav, filename: 'a.wav' }]);
    const res = await stack.as(token, {
      method: 'POST',
      url: '/api/files/upload',
      payload,
      headers: { ...headers, 'content-length': String(MAX_UPLOAD * 2) },
    });
    expect(res.statusCode).toBe(413);
  });

  test('two files in one request is 400', async () => {
    const { payload, headers } = multipart([
      { name: 'file', value: audio.wav, filename: 'a.wav' },
      { name: 'file', value: audio.wav, filename: 'b.wav' },
    ]);
    const res = await stack.as(token, { method: 'POST', url: '/api/files/upload', payload, headers });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Upload one file at a time');
  });

  test('unknown fields and a bad clientId are 400', async () => {
    const unknown = await stack.as(token, uploadRequest(audio.wav, 'a.wav', { owner: 'me' }));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toMatch(/owner/);
    const { payload, headers } = multipart([
      { name: 'file', value: audio.wav, filename: 'a.wav' },
      { name: 'clientId', value: 'not-a-uuid' },
    ]);
    const bad = await stack.as(token, { method: 'POST', url: '/api/files/upload', payload, headers });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/clientId/);
  });

  test('no file, or not multipart at all', async () => {
    const { payload, headers } = multipart([{ name: 'clientId', value: randomUUID() }]);
    expect((await stack.as(token, { method: 'POST', url: '/api/files/upload', payload, headers })).statusCode).toBe(
      400,
    );
    const json = await stack.as(token, { method: 'POST', url: '/api/files/upload', payload: { file: 'x' } });
    expect(json.statusCode).toBe(415);
    const broken = await stack.as(token, {
      method: 'POST',
      url: '/api/files/upload',
      payload: 'garbage',
      headers: { 'content-type': 'multipart/form-data' },
    });
    expect(broken.statusCode).toBe(400);
  });
});

describe('company storage quota', () => {
  const SMALL = randomUUID();
  let small: string;
  beforeAll(async () => {
    await announceCompany(stack, SMALL, audio.wav.length * 2 + 10);
    small = await stack.tokenFor('CALLER', SMALL);
  });

  test('uploads fit until the quota, then 413 with nothing stored; raising the quota lets them in', async () => {
    expect((await stack.as(small, uploadRequest(audio.wav, '1.wav'))).statusCode).toBe(201);
    expect((await stack.as(small, uploadRequest(audio.wav, '2.wav'))).statusCode).toBe(201);
    const objects = filesUnder(objectsDir()).length;
    const over = await stack.as(small, uploadRequest(audio.wav, '3.wav'));
    expect(over.statusCode).toBe(413);
    expect(over.json().message).toBe('Storage limit reached for your company');
    expect(filesUnder(objectsDir())).toHaveLength(objects);
    expect((await stack.as(small, { method: 'GET', url: '/api/files' })).json().total).toBe(2);

    await announceCompany(stack, SMALL, audio.wav.length * 3 + 10, 'company.updated');
    expect((await stack.as(small, uploadRequest(audio.wav, '3.wav'))).statusCode).toBe(201);
  });

  test('a file bigger than what is left is stopped mid-stream', async () => {
    const TINY = randomUUID();
    await announceCompany(stack, TINY, 100_000);
    const tiny = await stack.tokenFor('ADMIN', TINY);
    const before = filesUnder(objectsDir()).length;
    const res = await stack.as(
      tiny,
      uploadRequest(Buffer.concat([wavHeader(200_000), Buffer.alloc(200_000)]), 'x.wav'),
    );
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe('Storage limit reached for your company');
    expect(filesUnder(objectsDir())).toHaveLength(before);
  });

  test('concurrent uploads cannot pass the quota together', async () => {
    const RACE = randomUUID();
    await announceCompany(stack, RACE, audio.wav.length * 2 + 10);
    const racer = await stack.tokenFor('USER', RACE);
    const results = await Promise.all([1, 2, 3, 4].map((n) => stack.as(racer, uploadRequest(audio.wav, `${n}.wav`))));
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(2);
    expect(results.filter((r) => r.statusCode === 413)).toHaveLength(2);
    const stored = filesUnder(join(objectsDir(), RACE));
    expect(stored).toHaveLength(2);
  });

  test('a deleted company no longer has a quota projection', async () => {
    await announceCompany(stack, SMALL, null, 'company.deleted');
    const left = await stack.database.query(`select id from file.companies where id = '${SMALL}'`);
    expect(left).toHaveLength(0);
  });
});

describe('who may upload where', () => {
  test('anonymous is 401', async () => {
    expect((await stack.as(null, uploadRequest(audio.wav, 'a.wav'))).statusCode).toBe(401);
  });

  test('a HOST_ADMIN names the company; an unknown company is 404; none is 400', async () => {
    const host = await stack.tokenFor('HOST_ADMIN', null);
    const res = await stack.as(host, uploadRequest(audio.wav, 'a.wav', {}, `/api/files/upload?companyId=${COMPANY}`));
    expect(res.statusCode).toBe(201);
    expect(res.json().path.startsWith(`${COMPANY}/`)).toBe(true);
    expect(
      (await stack.as(host, uploadRequest(audio.wav, 'a.wav', {}, `/api/files/upload?companyId=${randomUUID()}`)))
        .statusCode,
    ).toBe(404);
    expect((await stack.as(host, uploadRequest(audio.wav, 'a.wav'))).statusCode).toBe(400);
  });

  test('another role naming another company still uploads into its own', async () => {
    const other = randomUUID();
    const res = await stack.as(token, uploadRequest(audio.wav, 'a.wav', {}, `/api/files/upload?companyId=${other}`));
    expect(res.statusCode).toBe(201);
    expect(res.json().path.startsWith(`${COMPANY}/`)).toBe(true);
    expect(existsSync(join(objectsDir(), other))).toBe(false);
  });
});
