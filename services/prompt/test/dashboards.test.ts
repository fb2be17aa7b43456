import { randomUUID } from 'node:crypto';
import {
  textParts,
  type AnalyticsDto,
  type CrmDto,
  type DashboardCallsDto,
  type Envelope,
  type ScorecardPoint,
  type TaskState,
} from '@earshot/contracts';
import { buildEnvelope } from '@earshot/kit';
import { createTestStack, serveUnmeteredCredits, type TestStack } from '@earshot/kit/testing';
import { startFakeOpenAI, type FakeOpenAI } from '@earshot/ai/testing';
import { promptService } from '../src';
import { addChatModel, companyCreated, deliver, runsDone, type Line } from './analysis-helpers';

// Dashboards on a set of calls with known durations, speakers, tags, clients, uploaders and dates,
// sent as the file, transcription, auth, tenant and tasks services send their events. Every date
// is UTC; the calls sit on period edges: a Sunday 23:59:59 and the Monday 00:00:00 after it, the
// leap day 2024-02-29 and the last second of March.

let stack: TestStack;
let fake: FakeOpenAI;
let host: string;
let adminA: string;
let userA: string;
let callerA: string;
let adminB: string;
const companyA = randomUUID();
const companyB = randomUUID();
const alice = randomUUID();
const bob = randomUUID();
const acme = randomUUID();
const globex = randomUUID();
const initech = randomUUID();
const system = { type: 'system', id: null } as const;
const ALICE = 'Alice Smith';
const BOB = 'Bob Jones';

const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
const at =
  (iso: string) =>
  (envelope: Envelope): Envelope => ({ ...envelope, occurredAt: iso });

/** What transcription sends for a finished call: completed, the text, then the speakers by name. */
function transcribed(
  fileId: string,
  lines: Line[],
  duration: number,
  speakers: { speakerId: string; name: string }[],
  fileName = 'call.wav',
  companyId = companyA,
) {
  const id = randomUUID();
  const segments = lines.map((s, i) => ({ segmentId: `s-${i}`, ...s }));
  const parts = textParts(segments);
  return {
    id,
    envelopes: [
      buildEnvelope({
        type: 'transcript.completed',
        companyId,
        actor: system,
        data: {
          id,
          fileId,
          fileName,
          engine: 'test',
          duration,
          speakers: speakers.length,
          words: 0,
          parts: parts.length,
        },
      }),
      ...parts.map((part, i) =>
        buildEnvelope({
          type: 'transcript.text_published',
          companyId,
          actor: system,
          data: { id, fileId, fileName, part: i, parts: parts.length, segments: part },
        }),
      ),
      buildEnvelope({ type: 'transcript.speakers_changed', companyId, actor: system, data: { id, fileId, speakers } }),
    ],
  };
}

/** A person renames a speaker in the editor: the segments follow, then the speakers' names. */
function renamed(
  fileId: string,
  transcriptId: string,
  lines: Line[],
  speakers: { speakerId: string; name: string }[],
): Envelope[] {
  const actor = { type: 'user', id: alice, role: 'ADMIN' } as const;
  const segments = lines.map((s, i) => ({ segmentId: `s-${i}`, ...s }));
  return [
    buildEnvelope({
      type: 'transcript.segments_changed',
      companyId: companyA,
      actor,
      data: {
        id: transcriptId,
        fileId,
        editId: randomUUID(),
        kind: 'rename_speaker',
        part: 0,
        parts: 1,
        removed: [],
        segments,
      },
    }),
    buildEnvelope({
      type: 'transcript.speakers_changed',
      companyId: companyA,
      actor,
      data: { id: transcriptId, fileId, speakers },
    }),
  ];
}

function uploaded(
  fileId: string,
  when: string,
  uploadedBy: string,
  clientId: string | null,
  name = 'call.wav',
  companyId = companyA,
): Envelope {
  return at(when)(
    buildEnvelope({
      type: 'file.uploaded',
      companyId,
      actor: system,
      data: { id: fileId, storageKey: 'k', originalName: name, mimeType: 'audio/wav', size: 1, clientId, uploadedBy },
    }),
  );
}

const tagged = (fileId: string, before: string[], after: string[]) =>
  buildEnvelope({
    type: 'file.tags_changed',
    companyId: companyA,
    actor: system,
    data: { id: fileId, before: { tags: before }, after: { tags: after } },
  });

const STEREO = [
  { speakerId: 'speaker_0', name: 'Agent' },
  { speakerId: 'speaker_1', name: 'Customer' },
];

const call1 = randomUUID();
const call2 = randomUUID();
const call3 = randomUUID();
const call4 = randomUUID();
const call5 = randomUUID();
const call6 = randomUUID();
const call7 = randomUUID();
const thisMonth = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1)).toISOString();

// Call 1, Sunday 2024-02-25 23:59:59: stereo, agent 0–30 s (10 words), customer 30–50 s (5 words), 60 s long.
const lines1: Line[] = [
  { speaker: 'Agent', start: 0, end: 30, text: words(10) },
  { speaker: 'Customer', start: 30, end: 50, text: words(5) },
];
// Call 2, Monday 2024-02-26 00:00:00: stereo, the customer interrupts (15–20 s), 40 s long.
const lines2: Line[] = [
  { speaker: 'Agent', start: 0, end: 20, text: words(4) },
  { speaker: 'Customer', start: 15, end: 40, text: words(6) },
];
// Call 3, the leap day at noon: one speaker (renamed to Alice Smith), 10–40 s, 50 s long; uploaded by Bob.
const lines3: Line[] = [{ speaker: 'Speaker 1', start: 10, end: 40, text: words(30) }];
// Call 4, Sunday 2024-03-31 23:59:59: stereo, the agent speaker renamed to Bob Jones; uploaded by Alice.
const lines4: Line[] = [
  { speaker: 'Agent', start: 0, end: 10, text: words(5) },
  { speaker: 'Customer', start: 10, end: 40, text: words(15) },
];

const FORMAT = [
  { name: 'score', type: 'integer', range: '0-10', description: 'How well the agent did' },
  { name: 'tone', type: 'custom', options: ['positive', 'neutral', 'negative'], description: 'The tone' },
  { name: 'resolved', type: 'boolean', description: 'Was it solved' },
  { name: 'summary', type: 'string', description: 'One sentence' },
];
let promptId: string;
let otherPrompt: string;

const get = async <T>(token: string, url: string, status = 200): Promise<T> => {
  const res = await stack.as(token, { method: 'GET', url: `/api${url}` });
  expect({ url, status: res.statusCode, body: res.statusCode === status ? null : res.json() }).toEqual({
    url,
    status,
    body: null,
  });
  return res.json() as T;
};

async function analyse(fileId: string, result: Record<string, unknown>): Promise<void> {
  fake.setReply({
    pieces: [JSON.stringify({ summary: 'ok', ...result })],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  });
  const res = await stack.as(adminA, {
    method: 'POST',
    url: '/api/analysis/transcripts',
    payload: { fileId, promptId },
  });
  expect(res.statusCode).toBe(202);
  await runsDone(stack);
}

function task(
  id: string,
  type: 'task.created' | 'task.updated' | 'task.deleted',
  before: TaskState | null,
  after: TaskState | null,
): Envelope {
  return buildEnvelope({ type, companyId: companyA, actor: system, data: { id, before, after } });
}
const open = (clientId: string | null): TaskState => ({
  title: 'Call back',
  description: '',
  status: 'todo',
  assigneeId: bob,
  dueDate: null,
  clientId,
  link: null,
  createdBy: alice,
});

beforeAll(async () => {
  fake = await startFakeOpenAI();
  stack = await createTestStack([promptService], { AI_ALLOW_PRIVATE_URLS: 'true' });
  serveUnmeteredCredits(stack.database);
  host = await stack.tokenFor('HOST_ADMIN', null);
  adminA = await stack.tokenFor('ADMIN', companyA, alice);
  userA = await stack.tokenFor('USER', companyA);
  callerA = await stack.tokenFor('CALLER', companyA, bob);
  adminB = await stack.tokenFor('ADMIN', companyB);
  await addChatModel(stack, host, fake.url);

  const user = (id: string, first: string, last: string, role: 'ADMIN' | 'CALLER') =>
    buildEnvelope({
      type: 'user.created',
      companyId: companyA,
      actor: system,
      data: {
        id,
        before: null,
        after: { email: `${first}@a.test`, firstName: first, lastName: last, role, companyId: companyA },
      },
    });
  const client = (id: string, name: string, organisation: string | null) =>
    buildEnvelope({
      type: 'client.created',
      companyId: companyA,
      actor: system,
      data: {
        id,
        before: null,
        after: { name, organisation, email: null, phone: null, externalId: null, notes: null, ownerId: null },
      },
    });
  await deliver(
    stack,
    user(alice, 'Alice', 'Smith', 'ADMIN'),
    user(bob, 'Bob', 'Jones', 'CALLER'),
    client(acme, 'Acme Ltd', 'Acme'),
    client(globex, 'Globex', null),
    client(initech, 'Initech', 'Initech Inc'),
  );

  const t1 = transcribed(call1, lines1, 60, STEREO);
  const t2 = transcribed(call2, lines2, 40, STEREO, 'monday.wav');
  const t3 = transcribed(call3, lines3, 50, [{ speakerId: 'speaker_0', name: 'Speaker 1' }], 'leap.wav');
  const t4 = transcribed(call4, lines4, 40, STEREO);
  const t5 = transcribed(call5, lines1, 60, STEREO);
  const t7 = transcribed(call7, lines1, 60, STEREO);
  await deliver(
    stack,
    uploaded(call1, '2024-02-25T23:59:59.000Z', alice, acme, 'sunday.wav'),
    ...t1.envelopes,
    tagged(call1, [], ['billing']),
    uploaded(call2, '2024-02-26T00:00:00.000Z', bob, acme, 'monday.wav'),
    ...t2.envelopes,
    tagged(call2, [], ['billing', 'vip']),
    uploaded(call3, '2024-02-29T12:00:00.000Z', bob, globex, 'leap.wav'),
    ...t3.envelopes,
    ...renamed(
      call3,
      t3.id,
      lines3.map((l) => ({ ...l, speaker: ALICE })),
      [{ speakerId: 'speaker_0', name: ALICE }],
    ),
    uploaded(call4, '2024-03-31T23:59:59.000Z', alice, null, 'month-end.wav'),
    ...t4.envelopes,
    tagged(call4, [], ['old']),
    tagged(call4, ['old'], ['vip']),
    ...renamed(
      call4,
      t4.id,
      lines4.map((l) => ({ ...l, speaker: l.speaker === 'Agent' ? BOB : l.speaker })),
      [
        { speakerId: 'speaker_0', name: BOB },
        { speakerId: 'speaker_1', name: 'Customer' },
      ],
    ),
    // Deleted after its transcript: not a call any more.
    uploaded(call5, '2024-04-01T00:00:00.000Z', alice, acme),
    ...t5.envelopes,
    buildEnvelope({ type: 'file.deleted', companyId: companyA, actor: system, data: { id: call5, storageKey: 'k' } }),
    // Uploaded, never transcribed: not counted.
    uploaded(call6, '2024-03-15T10:00:00.000Z', alice, acme),
    tagged(call6, [], ['billing']),
    // This month, Initech's call (the CRM trend).
    uploaded(call7, thisMonth, bob, initech, 'recent.wav'),
    ...t7.envelopes,
    // Tasks: Acme has one open (one done, one deleted), Globex one.
    task('11111111-1111-4111-8111-000000000001', 'task.created', null, open(acme)),
    task('11111111-1111-4111-8111-000000000002', 'task.created', null, open(acme)),
    task('11111111-1111-4111-8111-000000000002', 'task.updated', open(acme), { ...open(acme), status: 'done' }),
    task('11111111-1111-4111-8111-000000000003', 'task.created', null, { ...open(acme), status: 'in_progress' }),
    task('11111111-1111-4111-8111-000000000003', 'task.deleted', { ...open(acme), status: 'in_progress' }, null),
    task('11111111-1111-4111-8111-000000000004', 'task.created', null, { ...open(globex), status: 'in_progress' }),
  );

  const created = await stack.as(host, {
    method: 'POST',
    url: '/api/prompts',
    payload: {
      name: 'Review',
      prompt: 'Review {{transcript}}',
      type: 'transcriptAnalysis',
      expectedFormat: FORMAT,
      scope: 'global',
      isGlobal: true,
    },
  });
  promptId = created.json()._id;
  const other = await stack.as(host, {
    method: 'POST',
    url: '/api/prompts',
    payload: {
      name: 'B only',
      prompt: 'x {{transcript}}',
      type: 'custom',
      expectedFormat: FORMAT,
      scope: 'company',
      companies: [companyB],
    },
  });
  otherPrompt = other.json()._id;
  await analyse(call1, { score: 8, tone: 'positive', resolved: true });
  await analyse(call2, { score: 6, tone: 'negative', resolved: false });
  await analyse(call3, { score: 9, tone: 'positive', resolved: true });
  await analyse(call4, { score: 3, tone: 'neutral', resolved: false });
  // A second run of the prompt on call 1: its answers replace the first run's.
  await analyse(call1, { score: 10, tone: 'neutral', resolved: false });
  await analyse(call7, { score: 7, tone: 'negative', resolved: true });
}, 120_000);
afterAll(async () => {
  await stack.close();
  await fake.close();
});

const RANGE = 'from=2024-02-19&to=2024-04-07';

describe('analytics', () => {
  test('calls and hours per week: Sunday 23:59:59 and Monday 00:00 fall in different weeks; empty weeks are there', async () => {
    const dto = await get<AnalyticsDto>(adminA, `/dashboards/analytics?${RANGE}&groupBy=week`);
    expect(dto.calls).toEqual([
      { period: '2024-02-19', count: 1, seconds: 60 },
      { period: '2024-02-26', count: 2, seconds: 90 },
      { period: '2024-03-04', count: 0, seconds: 0 },
      { period: '2024-03-11', count: 0, seconds: 0 },
      { period: '2024-03-18', count: 0, seconds: 0 },
      { period: '2024-03-25', count: 1, seconds: 40 },
      { period: '2024-04-01', count: 0, seconds: 0 },
    ]);
  });

  test('per month (the leap day in February, the last second of March in March) and per day', async () => {
    expect((await get<AnalyticsDto>(adminA, `/dashboards/analytics?${RANGE}&groupBy=month`)).calls).toEqual([
      { period: '2024-02-01', count: 3, seconds: 150 },
      { period: '2024-03-01', count: 1, seconds: 40 },
      { period: '2024-04-01', count: 0, seconds: 0 },
    ]);
    expect(
      (await get<AnalyticsDto>(userA, '/dashboards/analytics?from=2024-02-25&to=2024-02-29&groupBy=day')).calls,
    ).toEqual([
      { period: '2024-02-25', count: 1, seconds: 60 },
      { period: '2024-02-26', count: 1, seconds: 40 },
      { period: '2024-02-27', count: 0, seconds: 0 },
      { period: '2024-02-28', count: 0, seconds: 0 },
      { period: '2024-02-29', count: 1, seconds: 50 },
    ]);
  });

  test('talk figures: shares on the stereo calls, silence, interruptions, words per minute', async () => {
    const { talk } = await get<AnalyticsDto>(callerA, `/dashboards/analytics?${RANGE}`);
    expect(talk.agentShare).toBeCloseTo((30 / 50 + 20 / 45 + 10 / 40) / 3, 10);
    expect(talk.customerShare).toBeCloseTo((20 / 50 + 25 / 45 + 30 / 40) / 3, 10);
    expect(talk.silenceShare).toBeCloseTo((10 / 60 + 0 + 20 / 50 + 0) / 4, 10);
    expect(talk.interruptionsPerCall).toBe(0.25);
    expect(talk.wordsPerMinute).toBeCloseTo(75 / (165 / 60), 10);
  });

  test('by agent (the uploader, or the member a speaker was renamed to), by client and by tag', async () => {
    const dto = await get<AnalyticsDto>(adminA, `/dashboards/analytics?${RANGE}`);
    const agents = [...dto.byAgent].sort((a, b) => a.name.localeCompare(b.name));
    expect(agents).toEqual([
      {
        agentId: alice,
        name: ALICE,
        count: 2,
        seconds: 110,
        talkShare: expect.closeTo(0.6, 10),
        wordsPerMinute: expect.closeTo(45 / (80 / 60), 10),
      },
      {
        agentId: bob,
        name: BOB,
        count: 2,
        seconds: 80,
        talkShare: expect.closeTo((20 / 45 + 10 / 40) / 2, 10),
        wordsPerMinute: expect.closeTo(30 / (85 / 60), 10),
      },
    ]);
    expect(dto.byClient).toEqual([
      { clientId: acme, name: 'Acme Ltd', count: 2, seconds: 100, lastCall: '2024-02-26T00:00:00.000Z' },
      { clientId: globex, name: 'Globex', count: 1, seconds: 50, lastCall: '2024-02-29T12:00:00.000Z' },
    ]);
    expect(dto.byTag).toEqual([
      { tag: 'billing', count: 2, seconds: 100 },
      { tag: 'vip', count: 2, seconds: 80 },
    ]);
    // February whole (read from the client-month sums), and April, whose only call was deleted.
    expect((await get<AnalyticsDto>(adminA, '/dashboards/analytics?from=2024-02-01&to=2024-02-29')).byClient).toEqual(
      dto.byClient,
    );
    expect((await get<AnalyticsDto>(adminA, '/dashboards/analytics?from=2024-01-01&to=2024-04-30')).byClient).toEqual(
      dto.byClient,
    );
    expect((await get<AnalyticsDto>(adminA, '/dashboards/analytics?from=2024-04-01&to=2024-04-30')).byClient).toEqual(
      [],
    );
  });

  test('filters: an agent, a client, a tag', async () => {
    const byMonth = async (filter: string) =>
      (await get<AnalyticsDto>(adminA, `/dashboards/analytics?${RANGE}&groupBy=month&${filter}`)).calls.map((p) => [
        p.count,
        p.seconds,
      ]);
    expect(await byMonth(`agentId=${bob}`)).toEqual([
      [1, 40],
      [1, 40],
      [0, 0],
    ]);
    expect(await byMonth(`clientId=${acme}`)).toEqual([
      [2, 100],
      [0, 0],
      [0, 0],
    ]);
    expect(await byMonth('tag=vip')).toEqual([
      [1, 40],
      [1, 40],
      [0, 0],
    ]);
  });

  test('the day, agent and tag sums kept with the calls equal the calls they sum (after renames, retags and a deletion)', async () => {
    const rows = (text: string) => stack.database.query<Record<string, unknown>>(text, [companyA]);
    const calls = 'from prompt.dashboard_calls where company_id = $1 and seconds is not null';
    expect(
      await rows(
        'select day::text, calls, seconds, words::int as words, talk from prompt.dashboard_days where company_id = $1 and calls > 0 order by day',
      ),
    ).toEqual(
      await rows(
        `select day::text, count(*)::int as calls, sum(seconds) as seconds, sum(words)::int as words, sum(talk) as talk ${calls} group by day order by day`,
      ),
    );
    expect(
      await rows(
        'select agent_id, sum(calls)::int as n from prompt.dashboard_agent_days where company_id = $1 group by agent_id having sum(calls) > 0 order by agent_id',
      ),
    ).toEqual(await rows(`select agent_id, count(*)::int as n ${calls} group by agent_id order by agent_id`));
    expect(
      await rows(
        'select tag, sum(calls)::int as n from prompt.dashboard_tag_days where company_id = $1 group by tag having sum(calls) > 0 order by tag',
      ),
    ).toEqual(
      await rows(
        `select tag, count(*)::int as n ${calls.replace('from prompt.dashboard_calls', 'from prompt.dashboard_calls, unnest(tags) tag')} group by tag order by tag`,
      ),
    );
  });

  test('the calls behind a point: newest first, with the total', async () => {
    const week = await get<DashboardCallsDto>(userA, '/dashboards/calls?from=2024-02-26&to=2024-03-03');
    expect(week).toEqual({
      total: 2,
      items: [
        {
          fileId: call3,
          originalName: 'leap.wav',
          date: '2024-02-29T12:00:00.000Z',
          seconds: 50,
          agentId: alice,
          clientId: globex,
        },
        {
          fileId: call2,
          originalName: 'monday.wav',
          date: '2024-02-26T00:00:00.000Z',
          seconds: 40,
          agentId: bob,
          clientId: acme,
        },
      ],
    });
    const one = await get<DashboardCallsDto>(adminA, `/dashboards/calls?${RANGE}&tag=vip&limit=1`);
    expect([one.total, one.items.map((i) => i.fileId)]).toEqual([2, [call4]]);
  });
});

describe('scorecards', () => {
  const series = (q: string) =>
    get<ScorecardPoint[]>(adminA, `/dashboards/scorecards?${RANGE}&groupBy=month&promptId=${promptId}&${q}`);

  test('the average of an integer field (the latest run of a call counts), per month', async () => {
    expect(await series('field=score')).toEqual([
      { period: '2024-02-01', average: expect.closeTo((10 + 6 + 9) / 3, 10), runs: 3 },
      { period: '2024-03-01', average: 3, runs: 1 },
      { period: '2024-04-01', average: null, runs: 0 },
    ]);
    expect((await series(`field=score&agentId=${bob}`)).map((p) => p.average)).toEqual([6, 3, null]);
  });

  test('the distribution of an option field and the rate of a boolean one', async () => {
    expect(await series('field=tone')).toEqual([
      { period: '2024-02-01', distribution: { negative: 1, neutral: 1, positive: 1 }, runs: 3 },
      { period: '2024-03-01', distribution: { neutral: 1 }, runs: 1 },
      { period: '2024-04-01', distribution: {}, runs: 0 },
    ]);
    expect(await series('field=resolved')).toEqual([
      { period: '2024-02-01', rate: expect.closeTo(1 / 3, 10), runs: 3 },
      { period: '2024-03-01', rate: 0, runs: 1 },
      { period: '2024-04-01', rate: null, runs: 0 },
    ]);
  });

  test("a string field, an unknown field, another company's prompt", async () => {
    const bad = await stack.as(adminA, {
      method: 'GET',
      url: `/api/dashboards/scorecards?promptId=${promptId}&field=summary`,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toEqual([{ field: 'query.field', message: expect.any(String) }]);
    expect(
      (await stack.as(adminA, { method: 'GET', url: `/api/dashboards/scorecards?promptId=${promptId}&field=nope` }))
        .statusCode,
    ).toBe(400);
    expect(
      (await stack.as(adminA, { method: 'GET', url: `/api/dashboards/scorecards?promptId=${otherPrompt}&field=score` }))
        .statusCode,
    ).toBe(404);
  });
});

describe('CRM', () => {
  test('clients with their calls, last contact, open tasks and the trend of a field', async () => {
    const dto = await get<CrmDto>(callerA, `/dashboards/crm?promptId=${promptId}&field=score`);
    const months = dto.items[0]!.trend.map((t) => t.period);
    expect(months).toHaveLength(6);
    expect(months.at(-1)).toBe(thisMonth.slice(0, 10));
    const nulls = months.map((period) => ({ period, value: null }));
    expect(dto.items).toEqual([
      {
        clientId: initech,
        name: 'Initech',
        organisation: 'Initech Inc',
        calls: 1,
        lastContact: thisMonth,
        trend: [...nulls.slice(0, 5), { period: months[5], value: 7 }],
        openTasks: 0,
      },
      {
        clientId: globex,
        name: 'Globex',
        organisation: null,
        calls: 1,
        lastContact: '2024-02-29T12:00:00.000Z',
        trend: nulls,
        openTasks: 1,
      },
      {
        clientId: acme,
        name: 'Acme Ltd',
        organisation: 'Acme',
        calls: 2,
        lastContact: '2024-02-26T00:00:00.000Z',
        trend: nulls,
        openTasks: 1,
      },
    ]);
    const tone = await get<CrmDto>(adminA, `/dashboards/crm?promptId=${promptId}&field=tone`);
    expect(tone.items[0]!.trend.at(-1)).toEqual({ period: months[5], value: 'negative' });
    expect((await get<CrmDto>(adminA, '/dashboards/crm')).items.map((i) => i.trend)).toEqual([[], [], []]);
  });

  test('a call linked to another client takes its calls and its scorecard answers along', async () => {
    await deliver(
      stack,
      buildEnvelope({
        type: 'transcript.client_linked',
        companyId: companyA,
        actor: system,
        data: { id: randomUUID(), fileId: call7, before: { clientId: initech }, after: { clientId: globex } },
      }),
    );
    const dto = await get<CrmDto>(adminA, `/dashboards/crm?promptId=${promptId}&field=score`);
    const of = (id: string) => dto.items.find((i) => i.clientId === id)!;
    expect([of(initech).calls, of(initech).lastContact, of(initech).trend.at(-1)!.value]).toEqual([0, null, null]);
    expect([of(globex).calls, of(globex).lastContact, of(globex).trend.at(-1)!.value]).toEqual([2, thisMonth, 7]);
  });

  test('a USER may not open it', async () => {
    expect((await stack.as(userA, { method: 'GET', url: '/api/dashboards/crm' })).statusCode).toBe(403);
  });
});

describe('rights and isolation', () => {
  test('another company sees none of these calls, and naming company A is a 404', async () => {
    const dto = await get<AnalyticsDto>(adminB, `/dashboards/analytics?${RANGE}&groupBy=month`);
    expect(dto.calls.map((p) => p.count)).toEqual([0, 0, 0]);
    expect([dto.byAgent, dto.byClient, dto.byTag]).toEqual([[], [], []]);
    expect((await get<CrmDto>(adminB, '/dashboards/crm')).items).toEqual([]);
    await get(adminB, `/dashboards/analytics?companyId=${companyA}`, 404);
    await get(adminB, `/dashboards/crm?companyId=${companyA}`, 404);
    await get(adminB, `/dashboards/calls?companyId=${companyA}`, 404);
  });

  test('the platform administrator names the company: without it, a 400 naming companyId', async () => {
    const missing = await stack.as(host, { method: 'GET', url: `/api/dashboards/analytics?${RANGE}` });
    expect([missing.statusCode, missing.json().details]).toEqual([
      400,
      [{ field: 'query.companyId', message: expect.any(String) }],
    ]);
    const dto = await get<AnalyticsDto>(host, `/dashboards/analytics?${RANGE}&groupBy=month&companyId=${companyA}`);
    expect(dto.calls.map((p) => p.count)).toEqual([3, 1, 0]);
  });

  test('a range longer than the limit is a 400 naming to; from after to names from', async () => {
    const long = await stack.as(adminA, {
      method: 'GET',
      url: '/api/dashboards/analytics?from=2022-01-01&to=2024-01-02',
    });
    expect([long.statusCode, long.json().details?.[0]?.field]).toEqual([400, 'query.to']);
    const reversed = await stack.as(adminA, {
      method: 'GET',
      url: '/api/dashboards/analytics?from=2024-02-02&to=2024-02-01',
    });
    expect([reversed.statusCode, reversed.json().details?.[0]?.field]).toEqual([400, 'query.from']);
    expect(
      (await stack.as(adminA, { method: 'GET', url: '/api/dashboards/analytics?from=2024-02-30' })).statusCode,
    ).toBe(400);
  });
});

describe('a b2c company: each member sees their own calls only', () => {
  const privateCo = randomUUID();
  const me = randomUUID();
  const other = randomUUID();
  const mine = randomUUID();
  const theirs = randomUUID();

  test('analytics, the calls and CRM count only what the caller uploaded, their ADMIN included', async () => {
    await deliver(
      stack,
      companyCreated(privateCo, 'b2c'),
      uploaded(mine, '2024-05-06T09:00:00.000Z', me, null, 'mine.wav', privateCo),
      ...transcribed(mine, lines1, 60, STEREO, 'mine.wav', privateCo).envelopes,
      uploaded(theirs, '2024-05-07T09:00:00.000Z', other, null, 'theirs.wav', privateCo),
      ...transcribed(theirs, lines2, 40, STEREO, 'theirs.wav', privateCo).envelopes,
    );
    for (const token of [await stack.tokenFor('USER', privateCo, me), await stack.tokenFor('ADMIN', privateCo, me)]) {
      const dto = await get<AnalyticsDto>(token, '/dashboards/analytics?from=2024-05-01&to=2024-05-31&groupBy=month');
      expect([dto.calls, dto.byAgent.map((a) => a.agentId)]).toEqual([
        [{ period: '2024-05-01', count: 1, seconds: 60 }],
        [me],
      ]);
      expect(
        (await get<DashboardCallsDto>(token, '/dashboards/calls?from=2024-05-01&to=2024-05-31')).items.map(
          (i) => i.fileId,
        ),
      ).toEqual([mine]);
    }
    // The platform administrator sees the company's whole.
    expect(
      (
        await get<AnalyticsDto>(
          host,
          `/dashboards/analytics?from=2024-05-01&to=2024-05-31&groupBy=month&companyId=${privateCo}`,
        )
      ).calls,
    ).toEqual([{ period: '2024-05-01', count: 2, seconds: 100 }]);
  });
});
