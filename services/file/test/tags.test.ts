import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import type { Envelope } from '@earshot/contracts';
import { createTestStack, serveUnmeteredCredits, type TestStack } from '@earshot/kit/testing';
import { fileService } from '../src';
import { announceCompany, makeAudioFixtures, multipart, transcriptionEvent, uploadRequest } from './helpers';

jest.setTimeout(60_000);

let stack: TestStack;
let wav: Buffer;
const fileEvents: Envelope[] = [];

interface Item {
  _id: string;
  tags: string[];
  language: string | null;
  expectedSpeakers: number | null;
  speakers: string[];
}

beforeAll(async () => {
  wav = makeAudioFixtures('tags test').wav;
  stack = await createTestStack([fileService]);
  serveUnmeteredCredits(stack.database);
  await stack.bus.subscribe({ group: 'spy', topics: ['earshot.file'], handle: async (e) => void fileEvents.push(e) });
});
afterAll(async () => stack?.close());

/** A company of its own for each group of tests, so counts and lists hold only what the test made. */
async function company(type?: string) {
  const id = randomUUID();
  await announceCompany(stack, id, null, 'company.created', type);
  const [admin, user, caller] = await Promise.all([
    stack.tokenFor('ADMIN', id),
    stack.tokenFor('USER', id),
    stack.tokenFor('CALLER', id),
  ]);
  return { id, admin, user, caller };
}

async function upload(token: string, fields: Record<string, string> = {}): Promise<string> {
  const res = await stack.as(token, uploadRequest(wav, 'call.wav', fields));
  expect(res.statusCode).toBe(201);
  return (res.json() as { _id: string })._id;
}

const putTags = (token: string, fileId: string, tags: unknown) =>
  stack.as(token, { method: 'PUT', url: `/api/files/${fileId}/tags`, payload: { tags } });
const getItem = async (token: string, fileId: string) =>
  (await stack.as(token, { method: 'GET', url: `/api/files/${fileId}` })).json() as Item;
const tagList = async (token: string, query = '') => {
  const res = await stack.as(token, { method: 'GET', url: `/api/tags${query}` });
  expect(res.statusCode).toBe(200);
  return res.json() as { name: string; count: number }[];
};
const rename = (token: string, name: string, to: string, query = '') =>
  stack.as(token, { method: 'PUT', url: `/api/tags/${encodeURIComponent(name)}${query}`, payload: { name: to } });
const removeTag = (token: string, name: string, query = '') =>
  stack.as(token, { method: 'DELETE', url: `/api/tags/${encodeURIComponent(name)}${query}` });
const listIds = async (token: string, query: string) => {
  const res = await stack.as(token, { method: 'GET', url: `/api/files?${query}` });
  expect(res.statusCode).toBe(200);
  return (res.json() as { items: Item[] }).items.map((i) => i._id).sort();
};
/** The file.tags_changed events emitted while `act` ran, by file id. */
async function tagEvents(act: () => Promise<unknown>): Promise<Map<string, { before: string[]; after: string[] }>> {
  // Events of what the test did before are delivered first.
  await stack.settle();
  const start = fileEvents.length;
  await act();
  await stack.settle();
  const events = fileEvents.slice(start).filter((e) => e.type === 'file.tags_changed');
  const byFile = new Map(
    events.map((e) => {
      const data = e.data as { id: string; before: { tags: string[] }; after: { tags: string[] } };
      return [data.id, { before: data.before.tags, after: data.after.tags }];
    }),
  );
  // Never two events for one file from one change.
  expect(byFile.size).toBe(events.length);
  return byFile;
}
const firstField = (res: { json: () => unknown }) => (res.json() as { details: { field: string }[] }).details[0]?.field;

describe('PUT /files/{fileId}/tags', () => {
  test('tags are trimmed, lower-cased, de-duplicated and sorted; the change is announced once', async () => {
    const acme = await company();
    const fileId = await upload(acme.user);
    const events = await tagEvents(async () => {
      const res = await putTags(acme.caller, fileId, ['  Urgent ', 'urgent', 'Billing', 'q3/2026', 'URGENT']);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ fileId, tags: ['billing', 'q3/2026', 'urgent'] });
    });
    expect(events.get(fileId)).toEqual({ before: [], after: ['billing', 'q3/2026', 'urgent'] });
    expect(
      fileEvents.find((e) => e.type === 'file.tags_changed' && (e.data as { id: string }).id === fileId),
    ).toMatchObject({ companyId: acme.id, actor: { role: 'CALLER' } });
    expect((await getItem(acme.admin, fileId)).tags).toEqual(['billing', 'q3/2026', 'urgent']);

    // The same set again changes nothing and says nothing.
    expect((await tagEvents(() => putTags(acme.admin, fileId, ['urgent', 'billing', 'Q3/2026']))).size).toBe(0);
    const cleared = await tagEvents(() => putTags(acme.admin, fileId, ['billing']));
    expect(cleared.get(fileId)).toEqual({ before: ['billing', 'q3/2026', 'urgent'], after: ['billing'] });
    expect((await putTags(acme.admin, fileId, [])).json()).toEqual({ fileId, tags: [] });
    expect((await getItem(acme.admin, fileId)).tags).toEqual([]);
  });

  test('invalid tags are 400 naming the field, and change nothing', async () => {
    const acme = await company();
    const fileId = await upload(acme.admin);
    await putTags(acme.admin, fileId, ['kept']);
    const cases: [unknown, string][] = [
      [Array.from({ length: 21 }, (_, i) => `t${i}`), 'body.tags'],
      [['ok', '   '], 'body.tags.1'],
      [['x'.repeat(41)], 'body.tags.0'],
      [['bell\u0007'], 'body.tags.0'],
      [['tab\tinside'], 'body.tags.0'],
      [['nul\u0000'], 'body.tags.0'],
      [[42], 'body.tags.0'],
      ['urgent', 'body.tags'],
    ];
    for (const [tags, field] of cases) {
      const res = await putTags(acme.admin, fileId, tags);
      expect([JSON.stringify(tags).slice(0, 40), res.statusCode]).toEqual([JSON.stringify(tags).slice(0, 40), 400]);
      expect(firstField(res)).toBe(field);
    }
    const extra = await stack.as(acme.admin, {
      method: 'PUT',
      url: `/api/files/${fileId}/tags`,
      payload: { tags: [], more: 1 },
    });
    expect(extra.statusCode).toBe(400);
    // Exactly the limits pass: 20 tags of 40 characters.
    const most = Array.from({ length: 20 }, (_, i) => `${String(i).padStart(2, '0')}${'x'.repeat(38)}`);
    expect((await putTags(acme.admin, fileId, most)).statusCode).toBe(200);
    expect((await getItem(acme.admin, fileId)).tags).toEqual(most);
  });

  test("another company's file, or none, is a 404; the platform administrator tags any company's", async () => {
    const acme = await company();
    const globex = await company();
    const fileId = await upload(acme.admin);
    expect((await putTags(globex.admin, fileId, ['stolen'])).statusCode).toBe(404);
    expect((await putTags(acme.admin, randomUUID(), ['x'])).statusCode).toBe(404);
    const host = await stack.tokenFor('HOST_ADMIN', null);
    expect((await putTags(host, fileId, ['support'])).json()).toEqual({ fileId, tags: ['support'] });
    expect((await getItem(acme.user, fileId)).tags).toEqual(['support']);
  });
});

describe('GET /tags', () => {
  test("counts the company's recordings per tag, most used first; other companies see none of them", async () => {
    const acme = await company();
    const globex = await company();
    const [a, b, c] = [await upload(acme.admin), await upload(acme.user), await upload(acme.caller)];
    await putTags(acme.admin, a, ['sales', 'urgent']);
    await putTags(acme.admin, b, ['sales', 'billing']);
    await putTags(acme.admin, c, ['sales', 'urgent']);
    await putTags(globex.admin, await upload(globex.admin), ['sales', 'secret']);
    const expected = [
      { name: 'sales', count: 3 },
      { name: 'urgent', count: 2 },
      { name: 'billing', count: 1 },
    ];
    expect(await tagList(acme.user)).toEqual(expected);
    expect(await tagList(acme.caller)).toEqual(expected);
    expect(await tagList(globex.admin)).toEqual([
      { name: 'sales', count: 1 },
      { name: 'secret', count: 1 },
    ]);
    // A member's ?companyId= is not theirs to choose: still their own company.
    expect(await tagList(globex.admin, `?companyId=${acme.id}`)).toEqual([
      { name: 'sales', count: 1 },
      { name: 'secret', count: 1 },
    ]);
    const host = await stack.tokenFor('HOST_ADMIN', null);
    expect(await tagList(host, `?companyId=${acme.id}`)).toEqual(expected);
  });
});

describe('renaming, merging and deleting a tag', () => {
  async function tagged() {
    const acme = await company();
    const [f1, f2, f3] = [await upload(acme.admin), await upload(acme.user), await upload(acme.caller)];
    await putTags(acme.admin, f1, ['red', 'blue']);
    await putTags(acme.admin, f2, ['red']);
    await putTags(acme.admin, f3, ['green']);
    return { acme, f1, f2, f3 };
  }

  test('an ADMIN merges a tag into another: every file keeps it once, each changed file is announced', async () => {
    const { acme, f1, f2, f3 } = await tagged();
    const events = await tagEvents(async () => {
      const res = await rename(acme.admin, ' RED ', 'Blue');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual([
        { name: 'blue', count: 2 },
        { name: 'green', count: 1 },
      ]);
    });
    expect(Object.fromEntries(events)).toEqual({
      [f1]: { before: ['blue', 'red'], after: ['blue'] },
      [f2]: { before: ['red'], after: ['blue'] },
    });
    expect((await getItem(acme.admin, f1)).tags).toEqual(['blue']);
    expect((await getItem(acme.admin, f2)).tags).toEqual(['blue']);
    expect((await getItem(acme.admin, f3)).tags).toEqual(['green']);
  });

  test('an ADMIN renames a tag to a new name and deletes one', async () => {
    const { acme, f1, f2, f3 } = await tagged();
    const renamed = await tagEvents(async () => {
      expect((await rename(acme.admin, 'red', 'crimson')).json()).toEqual([
        { name: 'crimson', count: 2 },
        { name: 'blue', count: 1 },
        { name: 'green', count: 1 },
      ]);
    });
    expect(Object.fromEntries(renamed)).toEqual({
      [f1]: { before: ['blue', 'red'], after: ['blue', 'crimson'] },
      [f2]: { before: ['red'], after: ['crimson'] },
    });
    expect(await listIds(acme.user, 'tag=crimson')).toEqual([f1, f2].sort());
    expect(await listIds(acme.user, 'tag=red')).toEqual([]);

    const deleted = await tagEvents(async () => {
      expect((await removeTag(acme.admin, 'crimson')).json()).toEqual([
        { name: 'blue', count: 1 },
        { name: 'green', count: 1 },
      ]);
    });
    expect(Object.fromEntries(deleted)).toEqual({
      [f1]: { before: ['blue', 'crimson'], after: ['blue'] },
      [f2]: { before: ['crimson'], after: [] },
    });
    expect((await getItem(acme.admin, f3)).tags).toEqual(['green']);
  });

  test('an unknown tag is a 404; renaming to the same name changes nothing; a tag with a slash is addressed encoded', async () => {
    const { acme, f1 } = await tagged();
    expect((await rename(acme.admin, 'nothing', 'x')).statusCode).toBe(404);
    expect((await removeTag(acme.admin, 'nothing')).statusCode).toBe(404);
    expect(
      (await tagEvents(async () => expect((await rename(acme.admin, 'RED', 'red')).statusCode).toBe(200))).size,
    ).toBe(0);
    await putTags(acme.admin, f1, ['q3/2026']);
    expect((await rename(acme.admin, 'q3/2026', 'q3 2026')).json()).toEqual(
      expect.arrayContaining([{ name: 'q3 2026', count: 1 }]),
    );
    expect((await rename(acme.admin, 'red', ' ')).statusCode).toBe(400);
    expect(firstField(await rename(acme.admin, 'red', 'x'.repeat(41)))).toBe('body.name');
  });

  test('USER and CALLER may not rename or delete; another company is a 404 and keeps its tags', async () => {
    const { acme, f2 } = await tagged();
    for (const token of [acme.user, acme.caller]) {
      expect((await rename(token, 'red', 'blue')).statusCode).toBe(403);
      expect((await removeTag(token, 'red')).statusCode).toBe(403);
    }
    const globex = await company();
    expect((await rename(globex.admin, 'red', 'blue')).statusCode).toBe(404);
    expect((await removeTag(globex.admin, 'red', `?companyId=${acme.id}`)).statusCode).toBe(404);
    expect((await getItem(acme.admin, f2)).tags).toEqual(['red']);
  });

  test('the platform administrator names the company; without one it is a 400', async () => {
    const { acme, f2 } = await tagged();
    const host = await stack.tokenFor('HOST_ADMIN', null);
    const bare = await removeTag(host, 'red');
    expect(bare.statusCode).toBe(400);
    expect(firstField(bare)).toBe('query.companyId');
    expect((await removeTag(host, 'red', `?companyId=${randomUUID()}`)).statusCode).toBe(404);
    expect((await removeTag(host, 'red', `?companyId=${acme.id}`)).statusCode).toBe(200);
    expect((await getItem(acme.admin, f2)).tags).toEqual([]);
  });
});

describe('list filters', () => {
  let acme: Awaited<ReturnType<typeof company>>;
  const clientA = randomUUID();
  const clientB = randomUUID();
  let f1: string;
  let f2: string;
  let f3: string;

  beforeAll(async () => {
    acme = await company();
    f1 = await upload(acme.admin, { clientId: clientA, language: 'fr' });
    f2 = await upload(acme.user, { language: 'en' });
    f3 = await upload(acme.caller, { clientId: clientB, language: 'auto' });
    await putTags(acme.admin, f1, ['alpha']);
    await putTags(acme.admin, f2, ['alpha', 'beta']);
    const backdate = (id: string, at: string) =>
      stack.database.query('update file.files set uploaded_at = $1 where id = $2', [at, id]);
    await backdate(f1, '2026-01-10T23:59:59.999Z');
    await backdate(f2, '2026-01-11T00:00:00Z');
    await backdate(f3, '2026-02-01T12:00:00Z');
    await transcriptionEvent(stack, 'transcript.speakers_changed', acme.id, {
      id: randomUUID(),
      fileId: f1,
      speakers: [
        { speakerId: 'speaker_0', name: 'Alice' },
        { speakerId: 'speaker_1', name: 'Bob' },
      ],
    });
    await transcriptionEvent(stack, 'transcript.speakers_changed', acme.id, {
      id: randomUUID(),
      fileId: f2,
      speakers: [{ speakerId: 'speaker_0', name: 'Alice Smith' }],
    });
    await transcriptionEvent(stack, 'transcript.status_changed', acme.id, { fileId: f1, status: 'completed' });
    await transcriptionEvent(stack, 'transcript.status_changed', acme.id, { fileId: f2, status: 'processing' });
  });

  test('items carry tags, language, the expected and the named speakers', async () => {
    const items = (await stack.as(acme.user, { method: 'GET', url: '/api/files' })).json().items as Item[];
    expect(items.map((i) => i._id)).toEqual([f3, f2, f1]);
    expect(items.find((i) => i._id === f1)).toMatchObject({
      tags: ['alpha'],
      language: 'fr',
      speakers: ['Alice', 'Bob'],
      expectedSpeakers: null,
    });
    expect(items.find((i) => i._id === f3)).toMatchObject({ tags: [], language: null, speakers: [] });
  });

  test.each([
    ['tag=alpha', () => [f1, f2]],
    ['tag=BETA', () => [f2]],
    ['tag=gamma', () => []],
    [`clientId=${clientA}`, () => [f1]],
    ['from=2026-01-11', () => [f2, f3]],
    ['to=2026-01-10', () => [f1]],
    ['from=2026-01-10&to=2026-01-11', () => [f1, f2]],
    ['from=2026-02-01&to=2026-02-01', () => [f3]],
    ['speaker=alice', () => [f1]],
    ['speaker=ALICE%20SMITH', () => [f2]],
    ['speaker=Ali', () => []],
    ['status=completed', () => [f1]],
    ['status=pending', () => [f3]],
    ['language=fr', () => [f1]],
    ['language=en', () => [f2]],
    ['tag=alpha&language=en', () => [f2]],
    ['tag=alpha&from=2026-01-11&status=processing&speaker=alice%20smith', () => [f2]],
    [`tag=alpha&clientId=${clientA}&to=2026-01-10&speaker=bob&status=completed&language=fr`, () => [f1]],
    [`tag=beta&clientId=${clientA}`, () => []],
  ])('?%s', async (query, expected) => {
    expect(await listIds(acme.user, query)).toEqual(expected().sort());
  });

  test('bad filters are 400 naming the field', async () => {
    const cases: [string, string][] = [
      ['from=2026-13-01', 'query.from'],
      ['to=yesterday', 'query.to'],
      ['from=2026-02-02&to=2026-02-01', 'query.to'],
      ['status=done', 'query.status'],
      ['language=de', 'query.language'],
      ['tag=' + 'x'.repeat(41), 'query.tag'],
      ['speaker=%07', 'query.speaker'],
      ['clientId=nope', 'query.clientId'],
    ];
    for (const [query, field] of cases) {
      const res = await stack.as(acme.user, { method: 'GET', url: `/api/files?${query}` });
      expect([query, res.statusCode, firstField(res)]).toEqual([query, 400, field]);
    }
  });

  test("speaker names follow the transcript's renames, and another company's event changes nothing", async () => {
    const other = await company();
    await transcriptionEvent(stack, 'transcript.speakers_changed', other.id, {
      id: randomUUID(),
      fileId: f3,
      speakers: [{ speakerId: 'speaker_0', name: 'Mallory' }],
    });
    await transcriptionEvent(stack, 'transcript.speakers_changed', acme.id, {
      id: randomUUID(),
      fileId: 'not-a-uuid',
      speakers: [],
    });
    expect((await getItem(acme.admin, f3)).speakers).toEqual([]);
    await transcriptionEvent(stack, 'transcript.speakers_changed', acme.id, {
      id: randomUUID(),
      fileId: f3,
      speakers: [{ speakerId: 'speaker_0', name: 'Carol' }],
    });
    expect(await listIds(acme.user, 'speaker=carol')).toEqual([f3]);
  });
});

describe('b2c: each member tags and sees the tags of their own recordings', () => {
  test("another member's recording is a 404 and its tags stay out of counts, filters and renames", async () => {
    const solo = await company('b2c');
    const other = await stack.tokenFor('USER', solo.id);
    const mine = await upload(solo.user);
    const theirs = await upload(other);
    await putTags(solo.user, mine, ['shared-name', 'mine']);
    await putTags(other, theirs, ['shared-name', 'private']);
    expect((await putTags(solo.user, theirs, ['x'])).statusCode).toBe(404);
    expect((await putTags(solo.admin, theirs, ['x'])).statusCode).toBe(404);
    expect(await tagList(solo.user)).toEqual([
      { name: 'mine', count: 1 },
      { name: 'shared-name', count: 1 },
    ]);
    expect(await tagList(solo.admin)).toEqual([]);
    expect(await listIds(solo.user, 'tag=private')).toEqual([]);
    expect(await listIds(solo.user, 'tag=shared-name')).toEqual([mine]);
    // The company's ADMIN renames only what they can see: here, nothing.
    expect((await rename(solo.admin, 'private', 'seen')).statusCode).toBe(404);
    expect((await getItem(other, theirs)).tags).toEqual(['private', 'shared-name']);
    const host = await stack.tokenFor('HOST_ADMIN', null);
    expect(await tagList(host, `?companyId=${solo.id}`)).toEqual([
      { name: 'shared-name', count: 2 },
      { name: 'mine', count: 1 },
      { name: 'private', count: 1 },
    ]);
  });
});

describe('upload with language and speakers', () => {
  const uploadedEvent = (fileId: string) =>
    fileEvents.find((e) => e.type === 'file.uploaded' && (e.data as { id: string }).id === fileId);

  test('the fields are stored and carried on file.uploaded, before or after the file part', async () => {
    const acme = await company();
    const before = await upload(acme.user, { language: 'et', speakers: '3' });
    const { payload, headers } = multipart([
      { name: 'file', value: wav, filename: 'after.wav', contentType: 'audio/wav' },
      { name: 'speakers', value: ' 10 ' },
      { name: 'language', value: 'lv' },
    ]);
    const res = await stack.as(acme.user, { method: 'POST', url: '/api/files/upload', payload, headers });
    expect(res.statusCode).toBe(201);
    const after = (res.json() as { _id: string })._id;
    const auto = await upload(acme.user, { language: 'auto' });
    const plain = await upload(acme.user);
    await stack.settle();

    expect(await getItem(acme.user, before)).toMatchObject({ language: 'et', expectedSpeakers: 3 });
    expect(await getItem(acme.user, after)).toMatchObject({ language: 'lv', expectedSpeakers: 10 });
    expect(await getItem(acme.user, auto)).toMatchObject({ language: null, expectedSpeakers: null });
    expect(uploadedEvent(before)?.data).toMatchObject({ language: 'et', speakers: 3 });
    expect(uploadedEvent(after)?.data).toMatchObject({ language: 'lv', speakers: 10 });
    expect(uploadedEvent(auto)?.data).toMatchObject({ language: 'auto' });
    expect(uploadedEvent(plain)?.data).not.toHaveProperty('language');
    expect(uploadedEvent(plain)?.data).not.toHaveProperty('speakers');
  });

  test('a bad language or speaker count is a 400 naming the field, and nothing is stored', async () => {
    const acme = await company();
    const cases: [Record<string, string>, string][] = [
      [{ language: 'de' }, 'language'],
      [{ language: 'EN' }, 'language'],
      [{ language: '' }, 'language'],
      [{ speakers: '0' }, 'speakers'],
      [{ speakers: '11' }, 'speakers'],
      [{ speakers: '2.5' }, 'speakers'],
      [{ speakers: 'two' }, 'speakers'],
      [{ speakers: '' }, 'speakers'],
    ];
    for (const [fields, field] of cases) {
      const res = await stack.as(acme.user, uploadRequest(wav, 'call.wav', fields));
      expect([fields, res.statusCode, firstField(res)]).toEqual([fields, 400, field]);
      expect(res.json().message).toMatch(new RegExp(`^Invalid ${field}: `));
    }
    const { payload, headers } = multipart([
      { name: 'file', value: wav, filename: 'late.wav', contentType: 'audio/wav' },
      { name: 'language', value: 'xx' },
    ]);
    const late = await stack.as(acme.user, { method: 'POST', url: '/api/files/upload', payload, headers });
    expect([late.statusCode, firstField(late)]).toEqual([400, 'language']);
    const [row] = await stack.database.query<{ count: number }>(
      'select count(*)::int as count from file.files where company_id = $1',
      [acme.id],
    );
    expect(row?.count).toBe(0);
  });
});
