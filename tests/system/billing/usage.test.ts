import { buildEnvelope } from '@earshot/kit';
import { createTestStack, type TestStack } from '@earshot/kit/testing';
import { extractText, getDocumentProxy } from 'unpdf';
import { billingService } from '@earshot/billing-service';
import { tenantService } from '@earshot/tenant-service';

// Usage reports, /credits/me and monthly statements, summed from ledger rows this file writes
// itself: usage happened at given moments (around month boundaries, in UTC), which only SQL can
// backdate. Names come from the user projection, fed with the auth service's user events.
let stack: TestStack;
let host: string;

interface Company {
  _id: string;
  code: string;
}
let a: Company;
let b: Company;
const people = {
  admin: crypto.randomUUID(),
  user: crypto.randomUUID(),
  caller: crypto.randomUUID(),
  // A name a spreadsheet would run as a formula.
  formula: crypto.randomUUID(),
};
const tokens: Record<'admin' | 'user' | 'caller' | 'otherAdmin', string> = {
  admin: '',
  user: '',
  caller: '',
  otherAdmin: '',
};

async function company(name: string, code: string): Promise<Company> {
  const res = await stack.as(host, {
    method: 'POST',
    url: '/api/companies',
    payload: { name, code, domain: code.toLowerCase() },
  });
  expect(res.statusCode).toBe(201);
  return res.json() as Company;
}

/** A user of a company, as the auth service announces it. */
async function person(
  id: string,
  companyId: string,
  firstName: string,
  lastName: string,
  role: 'ADMIN' | 'USER' | 'CALLER',
  monthlyCredits: number | null = null,
) {
  const state = { email: `${id}@usage.test`, firstName, lastName, role, companyId, monthlyCredits };
  const envelope = buildEnvelope({
    type: 'user.created',
    companyId,
    actor: { type: 'system', id: null },
    data: { id, before: null, after: state },
  });
  await stack.bus.publish([{ topic: 'earshot.auth', key: companyId, envelope }]);
  await stack.settle();
}

interface Entry {
  kind: 'grant' | 'charge' | 'reservation' | 'release' | 'adjustment';
  amount: number;
  at?: string;
  feature?: string;
  model?: string | null;
  engine?: string;
  unit?: string;
  /** Tokens or seconds, as the work reported them. */
  measured?: number;
  /** Credits per unit: the line's quantity (thousands of tokens, minutes) is derived from measured. */
  unitPrice?: number;
  eventId?: string;
  userId?: string | null;
  reason?: string;
}

/** One ledger row (amount signed as the ledger keeps it: a charge is negative). */
async function entry(companyId: string, e: Entry): Promise<void> {
  await stack.database.query(
    `insert into billing.credit_ledger (company_id, kind, amount, reason, feature, model, engine, unit, measured, quantity, unit_price, event_id, user_id, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, round($9::numeric / (case $8 when 'audio_minute' then 60 else 1000 end), 4), $10, $11, $12, coalesce($13::timestamptz, now()))`,
    [
      companyId,
      e.kind,
      e.amount,
      e.reason ?? null,
      e.feature ?? null,
      e.model ?? null,
      e.engine ?? null,
      e.unit ?? null,
      e.measured ?? null,
      e.unitPrice ?? null,
      e.eventId ?? null,
      e.userId ?? null,
      e.at ?? null,
    ],
  );
}

const get = (token: string | null, url: string) => stack.as(token, { method: 'GET', url });

beforeAll(async () => {
  stack = await createTestStack([tenantService, billingService], { COMPANY_OPENING_CREDITS: '0' });
  host = await stack.tokenFor('HOST_ADMIN', null);
  // Latvian letters the PDF standard fonts do not have.
  a = await company('Ābeļu Dārzs SIA', 'ABELU');
  b = await company('Other Company', 'OTHER');
  tokens.admin = await stack.tokenFor('ADMIN', a._id, people.admin);
  tokens.user = await stack.tokenFor('USER', a._id, people.user);
  tokens.caller = await stack.tokenFor('CALLER', a._id, people.caller);
  tokens.otherAdmin = await stack.tokenFor('ADMIN', b._id);
  await person(people.admin, a._id, 'Anna', 'Admin', 'ADMIN');
  await person(people.user, a._id, 'Uldis', 'User', 'USER');
  await person(people.caller, a._id, 'Cara', 'Caller', 'CALLER', 10);
  await person(people.formula, a._id, '=HYPERLINK("http://x.test","a,b")', 'Sum', 'USER');

  // February 2025, and what lies just outside it.
  await entry(a._id, { kind: 'grant', amount: 100, at: '2025-01-10T12:00:00Z', reason: 'Start' });
  await entry(a._id, {
    kind: 'charge',
    amount: -1,
    at: '2025-01-31T23:59:59.999Z',
    feature: 'chat',
    model: 'gpt-4o',
    unit: 'output_1k',
    measured: 250,
    unitPrice: 4,
    userId: people.user,
  });
  // One reply: two lines, one per unit, of the same event.
  await entry(a._id, {
    kind: 'charge',
    amount: -2,
    at: '2025-02-01T00:00:00Z',
    feature: 'chat',
    model: 'gpt-4o',
    unit: 'input_1k',
    measured: 1000,
    unitPrice: 2,
    eventId: 'reply-1',
    userId: people.user,
  });
  await entry(a._id, {
    kind: 'charge',
    amount: -2,
    at: '2025-02-01T00:00:00Z',
    feature: 'chat',
    model: 'gpt-4o',
    unit: 'output_1k',
    measured: 500,
    unitPrice: 4,
    eventId: 'reply-1',
    userId: people.user,
  });
  await entry(a._id, { kind: 'grant', amount: 50, at: '2025-02-03T08:00:00Z', reason: 'Top-up' });
  // A queued transcription: held, then settled at its real length.
  await entry(a._id, {
    kind: 'reservation',
    amount: -10,
    at: '2025-02-15T09:00:00Z',
    feature: 'transcription',
    engine: 'pocketsphinx',
    userId: people.admin,
  });
  await entry(a._id, {
    kind: 'release',
    amount: 10,
    at: '2025-02-15T09:05:00Z',
    feature: 'transcription',
    engine: 'pocketsphinx',
    userId: people.admin,
  });
  await entry(a._id, {
    kind: 'charge',
    amount: -1.5,
    at: '2025-02-15T09:05:00Z',
    feature: 'transcription',
    engine: 'pocketsphinx',
    unit: 'audio_minute',
    measured: 90,
    unitPrice: 1,
    userId: people.admin,
  });
  await entry(a._id, { kind: 'adjustment', amount: -5, at: '2025-02-20T10:00:00Z', reason: 'Correction' });
  // The company's own work (an API key's upload, a custom GPT's index): no person.
  await entry(a._id, {
    kind: 'charge',
    amount: -0.2,
    at: '2025-02-20T11:00:00Z',
    feature: 'embeddings',
    model: 'text-embedding-3-small',
    unit: 'embedding_1k',
    measured: 2000,
    unitPrice: 0.1,
    userId: null,
  });
  await entry(a._id, {
    kind: 'charge',
    amount: -0.0125,
    at: '2025-02-28T23:59:59.999Z',
    feature: 'custom_gpt',
    model: '=cmd|\' /C calc\'!A0, "x"',
    unit: 'output_1k',
    measured: 5,
    unitPrice: 2.5,
    userId: people.formula,
  });
  // Still queued when February ended: a hold, not spending.
  await entry(a._id, {
    kind: 'reservation',
    amount: -3,
    at: '2025-02-28T20:00:00Z',
    feature: 'transcription',
    engine: 'pocketsphinx',
    userId: people.user,
  });
  await entry(a._id, {
    kind: 'charge',
    amount: -7,
    at: '2025-03-01T00:00:00Z',
    feature: 'chat',
    model: 'gpt-4o',
    unit: 'input_1k',
    measured: 3500,
    unitPrice: 2,
    userId: people.user,
  });
  await entry(a._id, {
    kind: 'release',
    amount: 3,
    at: '2025-03-01T06:00:00Z',
    feature: 'transcription',
    engine: 'pocketsphinx',
    userId: people.user,
  });
  // Another company's charge in the same days.
  await entry(b._id, {
    kind: 'charge',
    amount: -40,
    at: '2025-02-10T10:00:00Z',
    feature: 'chat',
    model: 'gpt-4o',
    unit: 'input_1k',
    measured: 20000,
    unitPrice: 2,
    userId: null,
  });
}, 60_000);
afterAll(async () => stack.close());

const FEBRUARY = 'from=2025-02-01&to=2025-02-28';

describe('a company’s usage', () => {
  test('sums the month’s charges by day, person, model and feature; holds and other months are not usage', async () => {
    const res = await get(host, `/api/companies/${a._id}/usage?${FEBRUARY}`);
    expect(res.statusCode).toBe(200);
    const usage = res.json();
    expect(usage).toMatchObject({
      from: '2025-02-01',
      to: '2025-02-28',
      currency: expect.any(String),
      creditRate: expect.any(Number),
      total: 5.7125,
    });
    // Every day of the month, in UTC, for a continuous chart.
    expect(usage.byDay).toHaveLength(28);
    expect(usage.byDay[0]).toEqual({ day: '2025-02-01', credits: 4 });
    expect(usage.byDay.filter((d: { credits: number }) => d.credits > 0)).toEqual([
      { day: '2025-02-01', credits: 4 },
      { day: '2025-02-15', credits: 1.5 },
      { day: '2025-02-20', credits: 0.2 },
      { day: '2025-02-28', credits: 0.0125 },
    ]);
    expect(usage.byUser).toEqual([
      { userId: people.user, name: 'Uldis User', credits: 4 },
      { userId: people.admin, name: 'Anna Admin', credits: 1.5 },
      { userId: null, name: 'Company account', credits: 0.2 },
      { userId: people.formula, name: '=HYPERLINK("http://x.test","a,b") Sum', credits: 0.0125 },
    ]);
    expect(usage.byModel).toEqual([
      { model: 'gpt-4o', credits: 4, inputTokens: 1000, outputTokens: 500, seconds: 0 },
      { model: 'pocketsphinx', credits: 1.5, inputTokens: 0, outputTokens: 0, seconds: 90 },
      { model: 'text-embedding-3-small', credits: 0.2, inputTokens: 2000, outputTokens: 0, seconds: 0 },
      { model: '=cmd|\' /C calc\'!A0, "x"', credits: 0.0125, inputTokens: 0, outputTokens: 5, seconds: 0 },
    ]);
    expect(usage.byFeature).toEqual([
      { feature: 'chat', credits: 4 },
      { feature: 'transcription', credits: 1.5 },
      { feature: 'embeddings', credits: 0.2 },
      { feature: 'custom_gpt', credits: 0.0125 },
    ]);
  });

  test('one person’s usage with userId; one day; the company’s ADMIN sees the same', async () => {
    const mine = (await get(host, `/api/companies/${a._id}/usage?${FEBRUARY}&userId=${people.user}`)).json();
    expect(mine.total).toBe(4);
    expect(mine.byUser).toEqual([{ userId: people.user, name: 'Uldis User', credits: 4 }]);
    const lastDay = (await get(tokens.admin, `/api/companies/${a._id}/usage?from=2025-01-31&to=2025-01-31`)).json();
    expect(lastDay).toMatchObject({ total: 1, byDay: [{ day: '2025-01-31', credits: 1 }] });
    const admin = await get(tokens.admin, `/api/companies/${a._id}/usage?${FEBRUARY}`);
    expect(admin.statusCode).toBe(200);
    expect(admin.json().total).toBe(5.7125);
  });

  test('a period names its bounds: from alone runs to the end of its month, to alone from the start of its', async () => {
    expect((await get(host, `/api/companies/${a._id}/usage?from=2025-02-10`)).json()).toMatchObject({
      from: '2025-02-10',
      to: '2025-02-28',
      total: 1.7125,
    });
    expect((await get(host, `/api/companies/${a._id}/usage?to=2025-02-14`)).json()).toMatchObject({
      from: '2025-02-01',
      to: '2025-02-14',
      total: 4,
    });
    // Nothing given: the current month.
    const now = new Date().toISOString();
    expect((await get(host, `/api/companies/${a._id}/usage`)).json().from).toBe(`${now.slice(0, 7)}-01`);
  });

  test('bad periods are 400s naming the field', async () => {
    const cases: [string, string][] = [
      ['from=2025-03-01&to=2025-02-01', 'query.to'],
      ['from=2023-01-01&to=2025-02-01', 'query.from'],
      ['from=2025-02-30', 'query.from'],
      ['to=yesterday', 'query.to'],
      [`userId=not-a-uuid`, 'query.userId'],
      ['other=1', 'query'],
    ];
    for (const [query, field] of cases) {
      const res = await get(host, `/api/companies/${a._id}/usage?${query}`);
      expect([query, res.statusCode]).toEqual([query, 400]);
      expect(
        res
          .json()
          .details.map((d: { field: string }) => d.field)
          .join(),
      ).toContain(field);
    }
  });

  test('another company is a 404 for an ADMIN; USER and CALLER are refused; an unknown company is a 404', async () => {
    for (const path of ['usage', 'usage.csv', 'statement?month=2025-02', 'statement.pdf?month=2025-02']) {
      expect([path, (await get(tokens.otherAdmin, `/api/companies/${a._id}/${path}`)).statusCode]).toEqual([path, 404]);
      expect([path, (await get(tokens.user, `/api/companies/${a._id}/${path}`)).statusCode]).toEqual([path, 403]);
      expect([path, (await get(tokens.caller, `/api/companies/${a._id}/${path}`)).statusCode]).toEqual([path, 403]);
      expect([path, (await get(host, `/api/companies/${crypto.randomUUID()}/${path}`)).statusCode]).toEqual([
        path,
        404,
      ]);
      expect([path, (await get(null, `/api/companies/${a._id}/${path}`)).statusCode]).toEqual([path, 401]);
    }
  });
});

describe('the usage CSV', () => {
  test('one line per charge, oldest first, naming its unit, quantity and unit price; formula-looking cells defused', async () => {
    const res = await get(tokens.admin, `/api/companies/${a._id}/usage.csv?${FEBRUARY}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="usage-abelu-2025-02-01-2025-02-28.csv"');
    expect(res.body.split('\r\n')).toEqual([
      'date,user,feature,model,event,unit,quantity,unit_price,credits',
      // The two lines of one reply: same event, different units, each quantity × unit price.
      `2025-02-01T00:00:00.000Z,Uldis User,chat,gpt-4o,reply-1,input_1k,1,2,2`,
      `2025-02-01T00:00:00.000Z,Uldis User,chat,gpt-4o,reply-1,output_1k,0.5,4,2`,
      `2025-02-15T09:05:00.000Z,Anna Admin,transcription,pocketsphinx,,audio_minute,1.5,1,1.5`,
      `2025-02-20T11:00:00.000Z,Company account,embeddings,text-embedding-3-small,,embedding_1k,2,0.1,0.2`,
      `2025-02-28T23:59:59.999Z,"'=HYPERLINK(""http://x.test"",""a,b"") Sum",custom_gpt,"'=cmd|' /C calc'!A0, ""x""",,output_1k,0.005,2.5,0.0125`,
      '',
    ]);
    // One person's lines only.
    const one = await get(host, `/api/companies/${a._id}/usage.csv?${FEBRUARY}&userId=${people.admin}`);
    expect(one.body.trim().split('\r\n')).toHaveLength(2);
  });

  test('a long period streams in batches and keeps every line', async () => {
    const c = await company('Busy Ltd', 'BUSY');
    await stack.database.query(
      `insert into billing.credit_ledger (company_id, kind, amount, feature, model, unit, measured, quantity, unit_price, created_at)
       select $1, 'charge', -0.5, 'chat', 'gpt-4o', 'output_1k', 125, 0.125, 4, timestamptz '2025-04-01T00:00:00Z' + n * interval '1 minute'
       from generate_series(0, 1199) as n`,
      [c._id],
    );
    const res = await get(host, `/api/companies/${c._id}/usage.csv?from=2025-04-01&to=2025-04-30`);
    const lines = res.body.trim().split('\r\n');
    expect(lines).toHaveLength(1201);
    expect(lines[1]).toMatch(/^2025-04-01T00:00:00.000Z,/);
    expect(lines[1200]).toMatch(/^2025-04-01T19:59:00.000Z,/);
    expect((await get(host, `/api/companies/${c._id}/usage?from=2025-04-01&to=2025-04-30`)).json().total).toBe(600);
  });
});

describe('one’s own credits', () => {
  beforeAll(async () => {
    // This month (whenever the test runs), and the last moment of the month before.
    await entry(a._id, {
      kind: 'charge',
      amount: -3,
      feature: 'chat',
      model: 'gpt-4o',
      unit: 'output_1k',
      measured: 750,
      unitPrice: 4,
      userId: people.caller,
    });
    await entry(a._id, {
      kind: 'charge',
      amount: -0.25,
      feature: 'analysis',
      model: 'gpt-4o',
      unit: 'input_1k',
      measured: 125,
      unitPrice: 2,
      userId: people.caller,
    });
    await stack.database.query(
      `insert into billing.credit_ledger (company_id, kind, amount, feature, model, unit, measured, quantity, unit_price, user_id, created_at)
       values ($1, 'charge', -4, 'chat', 'gpt-4o', 'output_1k', 1000, 1, 4, $2, date_trunc('month', now() at time zone 'UTC') at time zone 'UTC' - interval '1 millisecond')`,
      [a._id, people.caller],
    );
    await entry(a._id, {
      kind: 'charge',
      amount: -2,
      feature: 'chat',
      model: 'gpt-4o',
      unit: 'output_1k',
      measured: 500,
      unitPrice: 4,
      userId: people.admin,
    });
    // The month's spend the ledger keeps beside those charges (what the credit gate reads), per person and month (UTC).
    await stack.database.query(
      `insert into billing.credit_spend (company_id, user_id, month, credits)
       select $1, who, to_char(at, 'YYYY-MM'), credits from (values
         ($2, now() at time zone 'UTC', 3.25), ($2, date_trunc('month', now() at time zone 'UTC') - interval '1 millisecond', 4),
         ($3, now() at time zone 'UTC', 2)) as spent (who, at, credits)`,
      [a._id, people.caller, people.admin],
    );
  });

  test('a person with a cap sees it, this month’s spend and what remains; not the company’s balance', async () => {
    const res = await get(tokens.caller, '/api/credits/me');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ monthlyCap: 10, spentThisMonth: 3.25, remaining: 6.75, companyBalance: null });
    expect((await get(tokens.user, '/api/credits/me')).json()).toEqual({
      monthlyCap: null,
      spentThisMonth: 0,
      remaining: null,
      companyBalance: null,
    });
  });

  test('the company’s ADMIN also sees the company’s balance; the platform administrator has no company', async () => {
    // The balance the ledger keeps with each entry (the rows above were written beside it, not through it).
    const granted = await stack.as(host, {
      method: 'POST',
      url: `/api/companies/${a._id}/credits`,
      payload: { amount: 25.5, reason: 'Top-up' },
    });
    expect(granted.statusCode).toBe(201);
    expect((await get(tokens.admin, '/api/credits/me')).json()).toEqual({
      monthlyCap: null,
      spentThisMonth: 2,
      remaining: null,
      companyBalance: granted.json().balance,
    });
    expect(granted.json().balance).toBe(25.5);
    expect((await get(host, '/api/credits/me')).json()).toEqual({
      monthlyCap: null,
      spentThisMonth: 0,
      remaining: null,
      companyBalance: null,
    });
  });

  test('own usage is one’s own charges only, this month by default', async () => {
    const res = await get(tokens.caller, '/api/credits/me/usage');
    expect(res.statusCode).toBe(200);
    const usage = res.json();
    expect(usage.total).toBe(3.25);
    expect(usage.byUser).toEqual([{ userId: people.caller, name: 'Cara Caller', credits: 3.25 }]);
    expect(usage.byFeature).toEqual([
      { feature: 'chat', credits: 3 },
      { feature: 'analysis', credits: 0.25 },
    ]);
    // An earlier month of one's own: still only one's own.
    const february = (await get(tokens.user, `/api/credits/me/usage?${FEBRUARY}`)).json();
    expect(february.total).toBe(4);
    // userId is not a parameter here: nobody reads another person's usage through it.
    const res2 = await get(tokens.user, `/api/credits/me/usage?userId=${people.admin}`);
    expect(res2.statusCode).toBe(400);
    expect(res2.json().details[0].field).toBe('query');
    expect((await get(host, '/api/credits/me/usage')).json().total).toBe(0);
  });
});

describe('the monthly statement', () => {
  test('opening, grants, adjustments, charges by feature, model, unit and unit price, closing; open holds are not spending', async () => {
    const res = await get(tokens.admin, `/api/companies/${a._id}/statement?month=2025-02`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      companyId: a._id,
      companyName: 'Ābeļu Dārzs SIA',
      month: '2025-02',
      currency: expect.any(String),
      creditRate: expect.any(Number),
      // The January grant less the charge at its last millisecond.
      opening: 99,
      grants: 50,
      adjustments: -5,
      // By feature, model, unit and unit price: a reply's input and output are two lines.
      charges: [
        { feature: 'chat', model: 'gpt-4o', unit: 'input_1k', quantity: 1, unitPrice: 2, credits: 2 },
        { feature: 'chat', model: 'gpt-4o', unit: 'output_1k', quantity: 0.5, unitPrice: 4, credits: 2 },
        {
          feature: 'custom_gpt',
          model: '=cmd|\' /C calc\'!A0, "x"',
          unit: 'output_1k',
          quantity: 0.005,
          unitPrice: 2.5,
          credits: 0.0125,
        },
        {
          feature: 'embeddings',
          model: 'text-embedding-3-small',
          unit: 'embedding_1k',
          quantity: 2,
          unitPrice: 0.1,
          credits: 0.2,
        },
        {
          feature: 'transcription',
          model: 'pocketsphinx',
          unit: 'audio_minute',
          quantity: 1.5,
          unitPrice: 1,
          credits: 1.5,
        },
      ],
      totalCharges: 5.7125,
      closing: 138.2875,
    });
  });

  test('each closing balance is the next month’s opening', async () => {
    const march = (await get(host, `/api/companies/${a._id}/statement?month=2025-03`)).json();
    expect(march).toMatchObject({ opening: 138.2875, grants: 0, adjustments: 0, totalCharges: 7, closing: 131.2875 });
    const january = (await get(host, `/api/companies/${a._id}/statement?month=2025-01`)).json();
    expect(january).toMatchObject({
      opening: 0,
      grants: 100,
      totalCharges: 1,
      closing: 99,
      charges: [{ feature: 'chat', model: 'gpt-4o', unit: 'output_1k', quantity: 0.25, unitPrice: 4, credits: 1 }],
    });
  });

  test('a month in the future is a 400 naming query.month; a malformed one too; none means this month', async () => {
    const next = new Date();
    next.setUTCDate(1);
    next.setUTCMonth(next.getUTCMonth() + 1);
    for (const month of [next.toISOString().slice(0, 7), '2025-13', '2025-2']) {
      const res = await get(host, `/api/companies/${a._id}/statement?month=${month}`);
      expect([month, res.statusCode]).toEqual([month, 400]);
      expect(res.json().details[0].field).toBe('query.month');
    }
    const current = await get(host, `/api/companies/${a._id}/statement`);
    expect(current.json().month).toBe(new Date().toISOString().slice(0, 7));
  });

  test('the PDF carries the company, the month, the currency and every figure', async () => {
    const res = await get(tokens.admin, `/api/companies/${a._id}/statement.pdf?month=2025-02`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('attachment; filename="statement-abelu-2025-02.pdf"');
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const { currency } = (await get(host, `/api/companies/${a._id}/statement?month=2025-02`)).json();
    const pdf = await getDocumentProxy(new Uint8Array(res.rawPayload));
    const { text } = await extractText(pdf, { mergePages: true });
    await pdf.destroy();
    for (const expected of [
      'Credit statement',
      'Ābeļu Dārzs SIA',
      'February 2025',
      currency,
      'Opening balance',
      '99.00',
      'Grants',
      '50.00',
      'Adjustments',
      '-5.00',
      // Each charge line, then how many of which unit at what price.
      'Chat · gpt-4o',
      '1 × 1,000 input tokens at 2.00',
      '0.5 × 1,000 output tokens at 4.00',
      '-2.00',
      'Transcription · pocketsphinx',
      '1.5 × minutes of audio at 1.00',
      '-1.50',
      'Embeddings · text-embedding-3-small',
      '2 × 1,000 embedding tokens at 0.10',
      '-0.20',
      'Custom GPTs',
      '-0.0125',
      'Total charges',
      '-5.7125',
      'Closing balance',
      '138.2875',
    ])
      expect([expected, text.includes(expected)]).toEqual([expected, true]);
  });
});

describe('charges made by the metering', () => {
  test('a reply and a settled transcription are usage, the reservation before it is not; the statement closes on the balance', async () => {
    const c = await company('Metered Oy', 'METERED');
    const mia = crypto.randomUUID();
    await person(mia, c._id, 'Mia', 'Meter', 'USER');
    const hostPost = async (url: string, payload: Record<string, unknown>) => {
      const res = await stack.as(host, { method: 'POST', url, payload });
      expect([url, res.statusCode]).toEqual([url, 201]);
    };
    await hostPost(`/api/companies/${c._id}/credits`, { amount: 100, reason: 'Start' });
    await hostPost('/api/pricing', { engine: 'pocketsphinx', unit: 'audio_minute', credits: 2 });
    await hostPost('/api/pricing', { modelId: 'usage-test-model', unit: 'input_1k', credits: 1 });
    await hostPost('/api/pricing', { modelId: 'usage-test-model', unit: 'output_1k', credits: 4 });
    const actor = { type: 'user' as const, id: mia };
    const deliver = async (topic: string, event: Parameters<typeof buildEnvelope>[0]) => {
      await stack.bus.publish([{ topic, key: c._id, envelope: buildEnvelope(event) }]);
      await stack.settle();
    };
    const usage = async () => (await get(host, `/api/companies/${c._id}/usage`)).json();
    const fileId = crypto.randomUUID();

    // Queued: ten minutes are held, nothing is used yet.
    await deliver('earshot.transcription', {
      type: 'transcript.status_changed',
      companyId: c._id,
      actor,
      data: { fileId, status: 'pending', estimatedSeconds: 600, engine: 'pocketsphinx' },
    });
    const credits = (await get(host, `/api/companies/${c._id}/credits`)).json();
    expect(credits).toMatchObject({ balance: 80, reserved: 20 });
    expect((await usage()).total).toBe(0);

    // Done after 90 s: charged 3, the hold released; and a reply of a priced model.
    await deliver('earshot.transcription', {
      type: 'transcript.completed',
      companyId: c._id,
      actor,
      data: {
        id: crypto.randomUUID(),
        fileId,
        engine: 'pocketsphinx',
        duration: 90,
        speakers: 1,
        words: 12,
        fileName: 'call.wav',
        parts: 0,
      },
    });
    await deliver('earshot.chat', {
      type: 'chat_reply.finished',
      companyId: c._id,
      actor,
      data: {
        conversationId: crypto.randomUUID(),
        messageId: crypto.randomUUID(),
        model: 'Usage Model',
        providerId: null,
        builtIn: false,
        status: 'complete',
        usage: { promptTokens: 1000, completionTokens: 500, totalTokens: 1500 },
        modelId: 'usage-test-model',
      },
    });

    const used = await usage();
    expect(used).toMatchObject({ total: 6, byUser: [{ userId: mia, name: 'Mia Meter', credits: 6 }] });
    expect(used.byFeature).toEqual([
      { feature: 'chat', credits: 3 },
      { feature: 'transcription', credits: 3 },
    ]);
    expect(used.byModel).toEqual([
      { model: 'Usage Model', credits: 3, inputTokens: 1000, outputTokens: 500, seconds: 0 },
      { model: 'pocketsphinx', credits: 3, inputTokens: 0, outputTokens: 0, seconds: 90 },
    ]);
    const statement = (await get(host, `/api/companies/${c._id}/statement`)).json();
    expect(statement).toMatchObject({ opening: 0, grants: 100, adjustments: 0, totalCharges: 6, closing: 94 });
    // Nothing is held any more: the statement's closing balance is the balance the credits page shows.
    expect((await get(host, `/api/companies/${c._id}/credits`)).json()).toMatchObject({ balance: 94, reserved: 0 });
    const me = (await get(await stack.tokenFor('USER', c._id, mia), '/api/credits/me')).json();
    expect(me).toEqual({ monthlyCap: null, spentThisMonth: 6, remaining: null, companyBalance: null });
  });
});
