import { randomUUID } from 'node:crypto';
import { PATTERN_MESSAGES, PROMPT_MESSAGES, type Envelope } from '@earshot/contracts';
import { createTestStack, type TestStack } from '@earshot/kit/testing';
import { promptService } from '../src';

let stack: TestStack;
let host: string;
const seen: Envelope[] = [];
const companyA = randomUUID();
const companyB = randomUUID();
const aliceId = randomUUID();
let adminA: string;
let adminB: string;
let alice: string; // USER of company A
let bob: string; // USER of company A too

beforeAll(async () => {
  stack = await createTestStack([promptService]);
  await stack.bus.subscribe({
    group: 'test-observer',
    topics: ['earshot.prompt'],
    handle: async (e) => void seen.push(e),
  });
  host = await stack.tokenFor('HOST_ADMIN', null);
  adminA = await stack.tokenFor('ADMIN', companyA);
  adminB = await stack.tokenFor('ADMIN', companyB);
  alice = await stack.tokenFor('USER', companyA, aliceId);
  bob = await stack.tokenFor('USER', companyA);
}, 60_000);
afterAll(async () => stack.close());

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (token: string, method: Method, url: string, payload?: unknown) =>
  stack.as(token, {
    method,
    url: `/api${url}`,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });

const SCORE = { name: 'clarity_score', type: 'integer', range: '1-10', description: 'How clear the agent was' };
const TONE = { name: 'tone', type: 'custom', options: ['positive', 'neutral', 'negative'], description: 'The tone' };
const prompt = (overrides: Record<string, unknown> = {}) => ({
  name: 'Call review',
  description: 'Tone and clarity',
  prompt: 'Rate {{ speakers }} in this call of {{recording.duration}} seconds:\n{{transcript}}',
  type: 'transcriptAnalysis',
  expectedFormat: [SCORE, TONE],
  scope: 'global',
  isGlobal: true,
  ...overrides,
});

async function create(overrides: Record<string, unknown> = {}) {
  const res = await call(host, 'POST', '/prompts', prompt(overrides));
  expect(res.statusCode).toBe(201);
  return res.json() as { _id: string; version: number; expectedFormat: unknown[] };
}

describe('expected format: the spec’s messages, on the server too', () => {
  const cases: [string, Record<string, unknown>, string, string][] = [
    ['a field without a name', { ...TONE, name: '' }, PROMPT_MESSAGES.fieldNameRequired, 'body.expectedFormat.1.name'],
    [
      'a field with no name at all',
      { type: 'string', description: 'x' },
      PROMPT_MESSAGES.fieldNameRequired,
      'body.expectedFormat.1.name',
    ],
    [
      'a field without a description',
      { ...SCORE, name: 'other', description: '  ' },
      PROMPT_MESSAGES.descriptionRequired,
      'body.expectedFormat.1.description',
    ],
    [
      'a custom field without options',
      { ...TONE, options: undefined },
      PROMPT_MESSAGES.optionsRequired,
      'body.expectedFormat.1.options',
    ],
    [
      'a custom field with empty options',
      { ...TONE, options: [] },
      PROMPT_MESSAGES.optionsRequired,
      'body.expectedFormat.1.options',
    ],
    [
      'a custom field with one option',
      { ...TONE, options: ['positive'] },
      PROMPT_MESSAGES.optionsTooFew,
      'body.expectedFormat.1.options',
    ],
    [
      'an integer field without a range',
      { ...SCORE, name: 'other', range: undefined },
      PROMPT_MESSAGES.rangeRequired,
      'body.expectedFormat.1.range',
    ],
    [
      'an integer field with a range that is not min-max',
      { ...SCORE, name: 'other', range: '1 to 10' },
      PROMPT_MESSAGES.rangeFormat,
      'body.expectedFormat.1.range',
    ],
    [
      'an integer field with a range the wrong way round',
      { ...SCORE, name: 'other', range: '10-1' },
      PROMPT_MESSAGES.rangeOrder,
      'body.expectedFormat.1.range',
    ],
    [
      'two fields of one name',
      { ...TONE, name: SCORE.name },
      PROMPT_MESSAGES.fieldNamesUnique,
      'body.expectedFormat.1.name',
    ],
  ];
  test.each(cases)('%s', async (_name, field, message, path) => {
    const res = await call(host, 'POST', '/prompts', prompt({ expectedFormat: [SCORE, field] }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message, details: [{ field: path, message }] });
  });

  test('every bad field is in the details; the message is the first one’s', async () => {
    const res = await call(
      host,
      'POST',
      '/prompts',
      prompt({
        expectedFormat: [
          { name: '', type: 'integer', description: '' },
          { name: 'tone', type: 'custom', options: ['x'], description: 'd' },
        ],
      }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: PROMPT_MESSAGES.fieldNameRequired,
      code: 'VALIDATION_FAILED',
      details: [
        { field: 'body.expectedFormat.0.name', message: PROMPT_MESSAGES.fieldNameRequired },
        { field: 'body.expectedFormat.0.description', message: PROMPT_MESSAGES.descriptionRequired },
        { field: 'body.expectedFormat.0.range', message: PROMPT_MESSAGES.rangeRequired },
        { field: 'body.expectedFormat.1.options', message: PROMPT_MESSAGES.optionsTooFew },
      ],
    });
  });

  test('a field keeps only what its type uses; a range is stored as min-max', async () => {
    const created = await create({
      expectedFormat: [
        { ...SCORE, range: ' -5 - 5 ', options: ['a', 'b'] },
        { ...TONE, range: '1-3' },
        { name: 'escalated', type: 'boolean', description: 'Escalated?', range: '1-2' },
      ],
    });
    expect(created.expectedFormat).toEqual([
      { name: 'clarity_score', type: 'integer', range: '-5-5', description: SCORE.description },
      TONE,
      { name: 'escalated', type: 'boolean', description: 'Escalated?' },
    ]);
  });
});

describe('prompt text', () => {
  test('an unknown variable is refused at save, by name', async () => {
    const res = await call(
      host,
      'POST',
      '/prompts',
      prompt({ prompt: 'Summarise {{transcript}} for {{ customer.email }}' }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^Unknown variable \{\{customer\.email\}\}: use \{\{transcript\}\}/);
    expect(res.json().details).toEqual([
      { field: 'body.prompt', message: expect.stringContaining('{{customer.email}}') },
    ]);
  });

  test('every known variable is accepted', async () => {
    await create({
      prompt: '{{transcript}} {{speakers}} {{client.name}} {{recording.date}} {{recording.duration}} {{language}}',
    });
  });

  test.each([
    ['name', { name: 'a\u0000b' }, 'body.name'],
    ['description', { description: 'a\u0000b' }, 'body.description'],
    ['prompt', { prompt: '{{transcript}}\u0000' }, 'body.prompt'],
    ['an option', { expectedFormat: [{ ...TONE, options: ['a\u0000', 'b'] }] }, 'body.expectedFormat.0.options.0'],
    ['the prompt text, too long', { prompt: 'x'.repeat(50_001) }, 'body.prompt'],
    ['the name, too long', { name: 'x'.repeat(201) }, 'body.name'],
    [
      'too many fields',
      { expectedFormat: Array.from({ length: 51 }, (_, i) => ({ ...SCORE, name: `f${i}` })) },
      'body.expectedFormat',
    ],
  ])('NUL or oversize in %s is a 400 naming the field', async (_name, overrides, field) => {
    const res = await call(host, 'POST', '/prompts', prompt(overrides));
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    expect(res.json().message).toContain(field);
  });

  test.each(['/prompts', '/prompts/available', '/analysis/patterns'])(
    'NUL in the search of %s is a 400 naming it',
    async (url) => {
      const res = await call(host, 'GET', `${url}?search=a%00b`);
      expect(res.statusCode).toBe(400);
      expect(res.json().details).toEqual([expect.objectContaining({ field: 'query.search' })]);
    },
  );

  test('NUL in a pattern’s name or description is a 400 naming the field', async () => {
    for (const field of ['name', 'description']) {
      const res = await call(host, 'POST', '/analysis/patterns', {
        name: 'P',
        promptIds: [randomUUID()],
        [field]: 'a\u0000b',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().details).toEqual([expect.objectContaining({ field: `body.${field}` })]);
    }
  });

  test('a company prompt names its companies, a user prompt its users', async () => {
    const company = await call(host, 'POST', '/prompts', prompt({ scope: 'company', isGlobal: false }));
    expect(company.json()).toMatchObject({
      message: PROMPT_MESSAGES.companiesRequired,
      details: [{ field: 'body.companies' }],
    });
    const user = await call(host, 'POST', '/prompts', prompt({ scope: 'user', isGlobal: false }));
    expect(user.json()).toMatchObject({ message: PROMPT_MESSAGES.usersRequired, details: [{ field: 'body.users' }] });
  });

  test('a prompt may have no scope (null, shown as NA) and is listed by that', async () => {
    const created = await create({ name: 'Unscoped draft', scope: undefined, isGlobal: false });
    expect(created).toMatchObject({ scope: null, version: 1 });
    const list = (await call(host, 'GET', '/prompts?scope=NA')).json() as { items: { _id: string }[] };
    expect(list.items.map((p) => p._id)).toEqual([created._id]);
  });
});

describe('versions', () => {
  test('editing creates a new version; every version stays readable', async () => {
    const v1 = await create({ name: 'Versioned' });
    expect(v1.version).toBe(1);
    const put = (body: Record<string, unknown>) =>
      call(host, 'PUT', `/prompts/${v1._id}`, prompt({ name: 'Versioned', ...body }));

    const v2 = await put({ prompt: 'Shorter: {{transcript}}', expectedFormat: [SCORE] });
    expect(v2.statusCode).toBe(200);
    expect(v2.json()).toMatchObject({
      _id: v1._id,
      version: 2,
      prompt: 'Shorter: {{transcript}}',
      expectedFormat: [SCORE],
    });
    // Who may run it is not what it does: no new version.
    const same = await put({ prompt: 'Shorter: {{transcript}}', expectedFormat: [SCORE], users: [aliceId] });
    expect(same.json()).toMatchObject({ version: 2, users: [aliceId] });

    const old = (await call(host, 'GET', `/prompts/${v1._id}?version=1`)).json();
    expect(old).toMatchObject({
      _id: v1._id,
      version: 1,
      prompt: prompt().prompt,
      expectedFormat: [SCORE, TONE],
      users: [aliceId],
    });
    expect((await call(host, 'GET', `/prompts/${v1._id}`)).json()).toMatchObject({ version: 2 });
    expect((await call(host, 'GET', `/prompts/${v1._id}?version=3`)).statusCode).toBe(404);

    const versions = (await call(host, 'GET', `/prompts/${v1._id}/versions`)).json();
    expect(versions).toMatchObject({
      total: 2,
      items: [
        { version: 2, expectedFormat: [SCORE] },
        { version: 1, prompt: prompt().prompt, expectedFormat: [SCORE, TONE] },
      ],
    });
  });

  test('two edits at once become two versions, one after the other', async () => {
    const p = await create({ name: 'Raced' });
    const [a, b] = await Promise.all(
      ['A: {{transcript}}', 'B: {{transcript}}'].map((text) =>
        call(host, 'PUT', `/prompts/${p._id}`, prompt({ name: 'Raced', prompt: text })),
      ),
    );
    expect([a!.json().version, b!.json().version].sort()).toEqual([2, 3]);
    const versions = (await call(host, 'GET', `/prompts/${p._id}/versions`)).json() as {
      items: { version: number; prompt: string }[];
    };
    expect(versions.items.map((v) => v.version)).toEqual([3, 2, 1]);
    expect(new Set(versions.items.map((v) => v.prompt)).size).toBe(3);
  });

  test('each change is an event without the prompt text, in the same transaction', async () => {
    const v1 = await create({ name: 'Evented' });
    await call(host, 'PUT', `/prompts/${v1._id}`, prompt({ name: 'Evented', expectedFormat: [TONE] }));
    expect((await call(host, 'DELETE', `/prompts/${v1._id}`)).json()).toEqual({ message: PROMPT_MESSAGES.deleted });
    await stack.settle();
    const mine = seen.filter((e) => e.data.id === v1._id);
    expect(mine.map((e) => e.type)).toEqual(['prompt.created', 'prompt.updated', 'prompt.deleted']);
    expect(mine[1]!.data).toMatchObject({
      before: { version: 1, fields: ['clarity_score', 'tone'] },
      after: { version: 2, fields: ['tone'], name: 'Evented', scope: 'global' },
    });
    expect(JSON.stringify(mine)).not.toContain('{{transcript}}');
    expect(mine.every((e) => e.companyId === null)).toBe(true);
  });

  test('a deleted prompt is gone from the API, but its versions are kept for past results', async () => {
    const p = await create({ name: 'Short-lived' });
    await call(host, 'DELETE', `/prompts/${p._id}`);
    expect((await call(host, 'GET', `/prompts/${p._id}`)).statusCode).toBe(404);
    expect((await call(host, 'DELETE', `/prompts/${p._id}`)).statusCode).toBe(404);
    const rows = await stack.database.query<{ version: number }>(
      'select version from prompt.prompt_versions where prompt_id = $1',
      [p._id],
    );
    expect(rows).toEqual([{ version: 1 }]);
  });
});

describe('who may run which prompt', () => {
  let global: string;
  let forA: string;
  let forB: string;
  let forAlice: string;
  let system: string;

  beforeAll(async () => {
    global = (await create({ name: 'Avail global' }))._id;
    forA = (await create({ name: 'Avail company A', scope: 'company', isGlobal: false, companies: [companyA] }))._id;
    forB = (await create({ name: 'Avail company B', scope: 'company', isGlobal: false, companies: [companyB] }))._id;
    forAlice = (await create({ name: 'Avail Alice', scope: 'user', isGlobal: false, users: [aliceId] }))._id;
    system = (await create({ name: 'Avail system', scope: 'system', isGlobal: false }))._id;
  });

  const available = async (token: string, query = '', search = 'Avail') =>
    (
      (
        await call(token, 'GET', `/prompts/available?search=${encodeURIComponent(search)}&pageSize=200${query}`)
      ).json() as { items: { _id: string; prompt?: string; companies?: unknown }[] }
    ).items;

  test('global for everyone, company prompts for that company, user prompts for that user', async () => {
    expect((await available(alice)).map((p) => p._id).sort()).toEqual([global, forA, forAlice].sort());
    expect((await available(bob)).map((p) => p._id).sort()).toEqual([global, forA].sort());
    expect((await available(adminB)).map((p) => p._id).sort()).toEqual([global, forB].sort());
    expect((await available(host)).map((p) => p._id).sort()).toEqual([global, forA, forB, forAlice, system].sort());
    expect((await available(host, `&companyId=${companyB}`)).map((p) => p._id).sort()).toEqual([global, forB].sort());
    // A company cannot widen its view by naming another.
    expect((await available(alice, `&companyId=${companyB}`)).map((p) => p._id).sort()).toEqual(
      [global, forA, forAlice].sort(),
    );
  });

  test('what people see of a prompt they may run: not its text, nor whom else it is shared with', async () => {
    const [item] = await available(alice, '&type=transcriptAnalysis', 'Avail company');
    expect(item).toBeDefined();
    expect(item!.prompt).toBeUndefined();
    expect(item!.companies).toBeUndefined();
  });

  test('another company’s or another person’s prompt is not found', async () => {
    expect((await call(alice, 'GET', `/prompts/available/${forA}`)).statusCode).toBe(200);
    expect((await call(alice, 'GET', `/prompts/available/${forAlice}`)).statusCode).toBe(200);
    expect((await call(bob, 'GET', `/prompts/available/${forAlice}`)).statusCode).toBe(404);
    expect((await call(alice, 'GET', `/prompts/available/${forB}`)).statusCode).toBe(404);
    expect((await call(adminA, 'GET', `/prompts/available/${system}`)).statusCode).toBe(404);
    expect((await call(host, 'GET', `/prompts/available/${forB}`)).statusCode).toBe(200);
  });

  test('only the platform administrator manages prompts', async () => {
    expect((await call(adminA, 'GET', '/prompts')).statusCode).toBe(403);
    expect((await call(adminA, 'POST', '/prompts', prompt())).statusCode).toBe(403);
    expect((await call(alice, 'GET', `/prompts/${forA}`)).statusCode).toBe(403);
  });

  test('the list searches, filters by type and scope, and pages', async () => {
    const page = (
      await call(host, 'GET', '/prompts?search=avail%20company&scope=company&type=transcriptAnalysis&pageSize=1&page=2')
    ).json();
    expect(page).toMatchObject({ total: 2, page: 2, pageSize: 1, totalPages: 2, items: [{ _id: forB }] });
    expect((await call(host, 'GET', '/prompts?search=avail&type=summary')).json()).toMatchObject({ total: 0 });
  });

  describe('analysis patterns', () => {
    const pattern = (promptIds: string[], overrides: Record<string, unknown> = {}) => ({
      name: 'Sales call review',
      promptIds,
      autoRun: 'company_transcripts',
      ...overrides,
    });

    test('an ADMIN makes their company’s pattern from prompts their company may run', async () => {
      const res = await call(adminA, 'POST', '/analysis/patterns', pattern([forA, global], { companyId: companyB }));
      expect(res.statusCode).toBe(201);
      // The companyId an ADMIN names is not theirs to choose.
      expect(res.json()).toMatchObject({
        companyId: companyA,
        promptIds: [forA, global],
        autoRun: 'company_transcripts',
        description: '',
      });
    });

    test('a prompt the company may not run is refused by id', async () => {
      for (const id of [forB, forAlice, system, randomUUID()]) {
        const res = await call(adminA, 'POST', '/analysis/patterns', pattern([global, id]));
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({
          message: `${PATTERN_MESSAGES.promptNotAvailable}: ${id}`,
          details: [{ field: 'body.promptIds.1' }],
        });
      }
      // A global pattern runs for every company: global prompts only.
      const globalPattern = await call(host, 'POST', '/analysis/patterns', pattern([global, forA]));
      expect(globalPattern.json()).toMatchObject({ message: `${PATTERN_MESSAGES.promptNotAvailable}: ${forA}` });
    });

    test('CRUD with each company’s patterns its own; global ones readable by ADMINs, changed by the platform', async () => {
      const own = (await call(adminA, 'POST', '/analysis/patterns', pattern([forA], { name: 'Own A' }))).json() as {
        _id: string;
      };
      const theirs = (await call(adminB, 'POST', '/analysis/patterns', pattern([forB], { name: 'Own B' }))).json() as {
        _id: string;
      };
      const globalRes = await call(
        host,
        'POST',
        '/analysis/patterns',
        pattern([global], { name: 'Platform', autoRun: 'none' }),
      );
      expect(globalRes.json()).toMatchObject({ companyId: null });
      const platform = globalRes.json() as { _id: string };

      const listA = (await call(adminA, 'GET', '/analysis/patterns?pageSize=200')).json() as {
        items: { _id: string }[];
      };
      expect(listA.items.map((p) => p._id)).toEqual(expect.arrayContaining([own._id, platform._id]));
      expect(listA.items.map((p) => p._id)).not.toContain(theirs._id);
      const hostB = (await call(host, 'GET', `/analysis/patterns?companyId=${companyB}`)).json() as {
        items: { _id: string }[];
      };
      expect(hostB.items.map((p) => p._id)).toEqual([theirs._id]);

      expect((await call(adminA, 'GET', `/analysis/patterns/${theirs._id}`)).statusCode).toBe(404);
      expect((await call(adminA, 'PUT', `/analysis/patterns/${theirs._id}`, pattern([global]))).statusCode).toBe(404);
      expect((await call(adminA, 'DELETE', `/analysis/patterns/${theirs._id}`)).statusCode).toBe(404);
      expect((await call(adminA, 'GET', `/analysis/patterns/${platform._id}`)).statusCode).toBe(200);
      const globalChange = await call(adminA, 'PUT', `/analysis/patterns/${platform._id}`, pattern([global]));
      expect(globalChange.json()).toMatchObject({ message: PATTERN_MESSAGES.globalPattern });
      expect(globalChange.statusCode).toBe(403);
      expect((await call(alice, 'GET', `/analysis/patterns/${own._id}`)).statusCode).toBe(403);

      const updated = await call(
        adminA,
        'PUT',
        `/analysis/patterns/${own._id}`,
        pattern([global, forA], { name: 'Own A, renamed', autoRun: 'client_recordings' }),
      );
      expect(updated.json()).toMatchObject({
        name: 'Own A, renamed',
        promptIds: [global, forA],
        autoRun: 'client_recordings',
        companyId: companyA,
      });
      expect((await call(host, 'GET', `/analysis/patterns/${theirs._id}`)).json()).toMatchObject({
        companyId: companyB,
      });
      expect((await call(adminA, 'DELETE', `/analysis/patterns/${own._id}`)).json()).toEqual({
        message: PATTERN_MESSAGES.deleted,
      });
      expect((await call(adminA, 'GET', `/analysis/patterns/${own._id}`)).statusCode).toBe(404);

      await stack.settle();
      const events = seen.filter((e) => e.data.id === own._id);
      expect(events.map((e) => [e.type, e.companyId])).toEqual([
        ['analysis_pattern.created', companyA],
        ['analysis_pattern.updated', companyA],
        ['analysis_pattern.deleted', companyA],
      ]);
      expect(events[1]!.data).toMatchObject({
        before: { promptIds: [forA], autoRun: 'company_transcripts' },
        after: { promptIds: [global, forA], autoRun: 'client_recordings' },
      });
    });

    test('a prompt a pattern runs is neither deleted nor taken from the pattern’s company', async () => {
      const onlyA = (await create({ name: 'Used by A', scope: 'company', isGlobal: false, companies: [companyA] }))._id;
      await call(adminA, 'POST', '/analysis/patterns', pattern([onlyA], { name: 'Uses it' }));
      const narrowed = await call(
        host,
        'PUT',
        `/prompts/${onlyA}`,
        prompt({ name: 'Used by A', scope: 'company', isGlobal: false, companies: [companyB] }),
      );
      expect(narrowed.statusCode).toBe(409);
      expect(narrowed.json()).toMatchObject({
        message: PROMPT_MESSAGES.inUse,
        details: [{ name: 'Uses it', companyId: companyA }],
      });
      expect((await call(host, 'GET', `/prompts/${onlyA}`)).json()).toMatchObject({ companies: [companyA] });
      const widened = await call(
        host,
        'PUT',
        `/prompts/${onlyA}`,
        prompt({ name: 'Used by A', scope: 'company', isGlobal: false, companies: [companyA, companyB] }),
      );
      expect(widened.statusCode).toBe(200);
      const deleted = await call(host, 'DELETE', `/prompts/${onlyA}`);
      expect(deleted.statusCode).toBe(409);
      expect(deleted.json()).toMatchObject({ message: PROMPT_MESSAGES.inUse });
      // The refused changes left no event behind: state and events commit together or not at all.
      await stack.settle();
      const events = seen.filter((e) => e.data.id === onlyA);
      expect(events.map((e) => e.type)).toEqual(['prompt.created', 'prompt.updated']);
      expect(events[1]!.data).toMatchObject({ after: { companies: [companyA, companyB] } });
    });
  });
});
