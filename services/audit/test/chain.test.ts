import { randomUUID } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import type { Actor, AuditVerifyResult, Envelope } from '@earshot/contracts';
import { buildEnvelope, csvLine, type Db } from '@earshot/kit';
import { createTestStack, type TestStack } from '@earshot/kit/testing';
import { runAuditCommand } from '../../../scripts/audit';
import { auditService } from '../src';
import { AnchorJob } from '../src/services/anchor';
import { AuditLog } from '../src/services/audit';
import { asStored, canonicalForm, GENESIS } from '../src/services/chain';
import { CSV_COLUMNS } from '../src/services/export';
import { chainsOfExport, parseCsv } from '../src/services/export-file';

let stack: TestStack;
let host: string;
const alice: Actor = { type: 'user', id: randomUUID(), email: 'alice@a.test', role: 'ADMIN', ip: '203.0.113.7' };
const dir = mkdtempSync(join(tmpdir(), 'earshot-audit-chain-'));

beforeAll(async () => {
  stack = await createTestStack([auditService]);
  host = await stack.tokenFor('HOST_ADMIN', null);
}, 60_000);
afterAll(async () => stack.close());

const ctx = () => stack.running.contexts.get('audit')!;

/** Events of one company as producers would send them, each with something of its own in data. */
const eventsOf = (companyId: string | null, n: number, tag = 'e'): Envelope[] =>
  Array.from({ length: n }, (_, i) =>
    buildEnvelope({
      type: 'user.signed_in',
      companyId,
      actor: alice,
      data: { id: `${tag}${i}`, email: alice.email!, method: 'password' },
    }),
  );

/** Through the consumer's own path: the applied-events ledger and the log, in one transaction. */
async function consume(envelopes: Envelope[]) {
  const audit = new AuditLog(ctx());
  await ctx().applyOnce('audit', envelopes, (tx, _emit, fresh) => audit.record(tx, fresh));
}

async function verify(companyId?: string, token = host) {
  const res = await stack.as(token, {
    method: 'GET',
    url: `/api/audit/verify${companyId ? `?companyId=${companyId}` : ''}`,
  });
  return { status: res.statusCode, body: res.json() as AuditVerifyResult };
}

async function cli(...argv: string[]) {
  const lines: string[] = [];
  const code = await runAuditCommand(argv, {
    database: stack.database,
    env: { ...process.env, DATABASE_URL: '' },
    print: (line) => lines.push(line),
  });
  return { code, lines };
}

/** Changes rows the way someone with SQL access would: with the append-only trigger switched off. */
async function tamper(statement: string, params: unknown[] = []) {
  await stack.database.query('alter table audit.entries disable trigger entries_no_update_or_delete');
  try {
    await stack.database.query(statement, params);
  } finally {
    await stack.database.query('alter table audit.entries enable trigger entries_no_update_or_delete');
  }
}

const idsInOrder = async (companyId: string) =>
  (
    await stack.database.query<{ id: string }>('select id from audit.entries where company_id = $1 order by seq', [
      companyId,
    ])
  ).map((r) => r.id);

describe('the canonical form', () => {
  test('keys sorted at every depth, no spaces, empty text as null, time to the millisecond', () => {
    const text = canonicalForm(
      {
        id: 'ABC',
        occurredAt: '2026-01-02T03:04:05.678Z',
        type: 't.x',
        version: 2,
        companyId: '',
        actor: { type: 'system', id: null, email: '' },
        targetType: 't',
        targetId: null,
        before: undefined,
        after: { z: 1, a: [{ y: 2, b: undefined }] },
        data: asStored({ when: new Date('2026-01-01T00:00:00Z') }),
      },
      GENESIS,
    );
    expect(text).toBe(
      `{"actor":{"email":null,"id":null,"ip":null,"role":null,"type":"system"},"after":{"a":[{"y":2}],"z":1},"before":null,"companyId":null,"data":{"when":"2026-01-01T00:00:00.000Z"},"id":"abc","occurredAt":"2026-01-02T03:04:05.678Z","prevHash":"${GENESIS}","target":{"id":null,"type":"t"},"type":"t.x","v":1,"version":2}`,
    );
  });
});

describe('a clean chain', () => {
  const company = randomUUID();
  beforeAll(async () => consume(eventsOf(company, 5)));

  test('verifies through the API and the command, with its entries and head', async () => {
    const { status, body } = await verify(company);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      ok: true,
      companyId: company,
      entries: 5,
      head: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(body.brokenAt).toBeUndefined();
    const [head] = await stack.database.query<{ hash: string }>(
      'select hash from audit.chain_heads where chain_key = $1',
      [company],
    );
    expect(body.head).toBe(head!.hash);
    const { code, lines } = await cli('verify', '--company', company);
    expect(code).toBe(0);
    expect(lines).toEqual([`ok     company ${company}: 5 entries, head ${body.head!.slice(0, 16)}`]);
  });

  test('each entry links to the one before it, the first to the genesis', async () => {
    const rows = await stack.database.query<{ prev_hash: string; hash: string }>(
      'select prev_hash, hash from audit.entries where company_id = $1 order by seq',
      [company],
    );
    expect(rows[0]!.prev_hash).toBe(GENESIS);
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.prev_hash).toBe(rows[i - 1]!.hash);
  });

  test('a redelivered event adds nothing and leaves the chain valid', async () => {
    const [again] = await stack.database.query<{ id: string }>(
      'select id from audit.entries where company_id = $1 order by seq limit 1',
      [company],
    );
    const copy = { ...eventsOf(company, 1)[0]!, id: again!.id };
    // Past the applied-events ledger too: straight into the log's own append.
    await ctx().transact((tx: Db) => new AuditLog(ctx()).record(tx, [copy]));
    expect((await verify(company)).body).toMatchObject({ ok: true, entries: 5 });
  });
});

describe('a row edited in SQL', () => {
  test('a changed entry is named by its position, seq and id; the command exits 1', async () => {
    const company = randomUUID();
    await consume(eventsOf(company, 6));
    const ids = await idsInOrder(company);
    await tamper(`update audit.entries set data = jsonb_set(data, '{method}', '"sso"') where id = $1`, [ids[3]]);
    const { body } = await verify(company);
    expect(body).toMatchObject({ ok: false, entries: 3, brokenAt: { position: 4, id: ids[3], reason: 'content' } });
    const { code, lines } = await cli('verify', '--company', company);
    expect(code).toBe(1);
    expect(lines[0]).toContain(`BROKEN company ${company}: entry 4`);
    expect(lines[0]).toContain(ids[3]);
  });

  test('a time moved by a microsecond is a change too', async () => {
    const company = randomUUID();
    await consume(eventsOf(company, 2));
    const ids = await idsInOrder(company);
    await tamper(`update audit.entries set occurred_at = occurred_at + interval '1 microsecond' where id = $1`, [
      ids[0],
    ]);
    expect((await verify(company)).body).toMatchObject({ ok: false, brokenAt: { position: 1, reason: 'content' } });
  });

  test('a removed entry breaks the link of the one after it; entries cut from the end break the head', async () => {
    const company = randomUUID();
    await consume(eventsOf(company, 5));
    const ids = await idsInOrder(company);
    await tamper('delete from audit.entries where id = $1', [ids[1]]);
    expect((await verify(company)).body).toMatchObject({
      ok: false,
      brokenAt: { position: 2, id: ids[2], reason: 'link' },
    });

    const other = randomUUID();
    await consume(eventsOf(other, 4));
    const last = (await idsInOrder(other)).at(-1)!;
    await tamper('delete from audit.entries where id = $1', [last]);
    expect((await verify(other)).body).toMatchObject({
      ok: false,
      entries: 3,
      brokenAt: { position: 4, reason: 'head', id: null },
    });
  });
});

describe('concurrent appends', () => {
  test('batches of two companies and the platform, consumed at once, redeliveries among them, keep every chain valid', async () => {
    const a = randomUUID();
    const b = randomUUID();
    const batches = Array.from({ length: 12 }, (_, i) => [
      ...eventsOf(a, 5, `a${i}-`),
      ...eventsOf(b, 3, `b${i}-`),
      ...eventsOf(null, 1, `p${i}-`),
    ]);
    // Every batch also carries the next batch's first event: delivered twice, logged once.
    const withRedeliveries = batches.map((batch, i) => [...batch, batches[(i + 1) % batches.length]![0]!]);
    const platformBefore = (await verify()).body.entries;
    await Promise.all(withRedeliveries.map((batch) => consume(batch)));
    expect((await verify(a)).body).toMatchObject({ ok: true, entries: 60 });
    expect((await verify(b)).body).toMatchObject({ ok: true, entries: 36 });
    expect((await verify()).body).toMatchObject({ ok: true, companyId: null, entries: platformBefore + 12 });
  });
});

describe('entries from before the chain', () => {
  test('are sealed in seq order when their chain is opened, and new entries follow them', async () => {
    const company = randomUUID();
    // As the log held them before the chain: no hashes, no head.
    await stack.database.query(
      `insert into audit.entries (id, occurred_at, type, version, company_id, actor, actor_id, target_type, target_id, data)
       select gen_random_uuid(), timestamptz '2026-01-01T00:00:00Z' + make_interval(secs => g), 'user.signed_in', 1, $1, $2::jsonb, $3, 'user', 'u' || g, jsonb_build_object('id', 'u' || g)
       from generate_series(1, 7) as g`,
      [company, JSON.stringify(alice), alice.id],
    );
    expect((await verify(company)).body).toMatchObject({ ok: false, brokenAt: { position: 1, reason: 'unsealed' } });
    await new AuditLog(ctx()).chain.sealOldEntries((fn) => ctx().transact((tx) => fn(tx)));
    expect((await verify(company)).body).toMatchObject({ ok: true, entries: 7 });
    await consume(eventsOf(company, 2));
    expect((await verify(company)).body).toMatchObject({ ok: true, entries: 9 });
    // The seal is the one update the table allows: a sealed entry cannot be sealed again.
    await expect(
      stack.database.query('update audit.entries set hash = null where company_id = $1', [company]),
    ).rejects.toThrow(/append-only/);
  });
});

describe('an export verifies offline', () => {
  const company = randomUUID();
  beforeAll(async () => {
    // Raw, not built: the log keeps whatever a producer sent (text that CSV defuses, a string snapshot).
    const tricky: Envelope = {
      id: randomUUID(),
      type: 'company.updated',
      version: 1,
      occurredAt: new Date().toISOString(),
      companyId: company,
      actor: { type: 'user', id: alice.id, email: '=cmd@evil.test' },
      data: { id: '+SUM(A1:A9)', before: 'plain text', after: { name: 'Say "hi",\r\nthen -1', n: [-1, 1e21, 0.1] } },
    };
    await consume([...eventsOf(company, 3), tricky, ...eventsOf(company, 2, 'x')]);
  });

  const download = async (format: 'csv' | 'jsonl') => {
    const res = await stack.as(host, { method: 'GET', url: `/api/audit/export?format=${format}&companyId=${company}` });
    expect(res.statusCode).toBe(200);
    const path = join(dir, `${company}.${format}`);
    writeFileSync(path, res.body);
    return path;
  };

  test.each(['jsonl', 'csv'] as const)('%s: the whole chain holds, without the database', async (format) => {
    const path = await download(format);
    const { code, lines } = await cli('verify', '--file', path);
    expect(lines).toEqual([
      `ok     company ${company}: 6 entries, head ${(await verify(company)).body.head!.slice(0, 16)}`,
    ]);
    expect(code).toBe(0);
  });

  test.each(['jsonl', 'csv'] as const)('%s: an edited file names the entry', async (format) => {
    const path = await download(format);
    writeFileSync(path, readFileSync(path, 'utf8').replace('x1', 'x9'));
    const { code, lines } = await cli('verify', '--file', path, '--company', company);
    expect(code).toBe(1);
    expect(lines[0]).toMatch(new RegExp(`^BROKEN company ${company}: entry 6 .*was changed`));
  });

  // What follows leaves every hash as it was: what was added is outside them, so only a verifier
  // that holds the file to the canonical form notices it.
  test.each([
    ['a field of its own', (entry: Record<string, unknown>) => ({ ...entry, approvedBy: 'mallory' }), 'approvedBy'],
    [
      'a field in actor',
      (entry: Record<string, unknown>) => ({ ...entry, actor: { ...(entry.actor as object), onBehalfOf: 'ceo' } }),
      'actor.onBehalfOf',
    ],
    [
      'a field in target',
      (entry: Record<string, unknown>) => ({ ...entry, target: { ...(entry.target as object), note: 'x' } }),
      'target.note',
    ],
  ])('jsonl: an entry given %s is refused, naming the field and its line', async (_, change, field) => {
    const path = await download('jsonl');
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    const id = (JSON.parse(lines[2]!) as { _id: string })._id;
    lines[2] = JSON.stringify(change(JSON.parse(lines[2]!) as Record<string, unknown>));
    writeFileSync(path, `${lines.join('\n')}\n`);
    const out = await cli('verify', '--file', path);
    expect(out.code).toBe(1);
    expect(out.lines).toEqual([
      `REFUSED ${path}: line 3 (entry ${id}): field "${field}" is outside the canonical form, which the hash does not cover`,
    ]);
  });

  test('csv: a column added to the header (and a cell to every row) is refused, naming the column', async () => {
    const path = await download('csv');
    const [header, ...rows] = parseCsv(readFileSync(path, 'utf8'));
    writeFileSync(
      path,
      [csvLine([...header!, 'approvedBy']), ...rows.map((row) => csvLine([...row, 'mallory']))].join(''),
    );
    const { code, lines } = await cli('verify', '--file', path);
    expect(code).toBe(1);
    expect(lines).toEqual([
      `REFUSED ${path}: line 1: column "approvedBy" is outside the canonical form, which the hash does not cover`,
    ]);
  });

  test('csv: a row with a cell more, or one less, than the header is refused, naming its line', async () => {
    const path = await download('csv');
    const text = readFileSync(path, 'utf8');
    // The last row: the oldest entry, on line 7 (the header, then six entries newest first).
    writeFileSync(path, text.replace(/\r\n$/, ',mallory\r\n'));
    const more = await cli('verify', '--file', path);
    expect(more.code).toBe(1);
    expect(more.lines).toEqual([
      `REFUSED ${path}: line 7: 19 cells where the header names 18 columns: cell 19 has no column`,
    ]);

    writeFileSync(path, text.replace(/,[0-9a-f]{64}\r\n$/, '\r\n'));
    const fewer = await cli('verify', '--file', path);
    expect(fewer.code).toBe(1);
    expect(fewer.lines).toEqual([
      `REFUSED ${path}: line 7: 17 cells where the header names 18 columns: no cell for column "hash"`,
    ]);
  });

  test("csv: lines are the file's, so a row after a cell that holds a line break is named by the line it starts on", () => {
    const row = CSV_COLUMNS.map((name) => (name === 'actorEmail' ? 'two\nlines' : name === 'seq' ? 1 : null));
    const text = csvLine(CSV_COLUMNS) + csvLine(row) + csvLine([...row, 'surplus']);
    expect(() => chainsOfExport(text)).toThrow('line 4: 19 cells where the header names 18 columns');
  });
});

describe('who may verify', () => {
  const own = randomUUID();
  const other = randomUUID();
  beforeAll(async () => consume([...eventsOf(own, 2), ...eventsOf(other, 1)]));

  test("the platform administrator verifies each company's chain apart", async () => {
    expect((await verify(own, host)).body).toMatchObject({ ok: true, companyId: own, entries: 2 });
    expect((await verify(other, host)).body).toMatchObject({ ok: true, companyId: other, entries: 1 });
  });

  test("every company role is refused, as for the audit log's entries (the spec's permission table); a bad companyId is a 400 naming the field", async () => {
    for (const role of ['ADMIN', 'USER', 'CALLER'] as const)
      expect((await verify(own, await stack.tokenFor(role, own))).status).toBe(403);
    const res = await stack.as(host, { method: 'GET', url: '/api/audit/verify?companyId=a%00b' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('companyId');
  });
});

describe('the daily anchor', () => {
  test('writes every chain head once per UTC day to the log, a file and syslog', async () => {
    const lines: string[] = [];
    const logger = pino(
      { level: 'info' },
      new Writable({
        write(chunk, _enc, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    );
    const syslog = createSocket('udp4');
    const received: string[] = [];
    let arrived = () => {};
    syslog.on('message', (message) => {
      received.push(String(message));
      arrived();
    });
    /** Resolves once n datagrams are in: the test waits for the event, not for a time. */
    const datagrams = (n: number) =>
      new Promise<void>((resolve) => {
        arrived = () => received.length >= n && resolve();
        arrived();
      });
    await new Promise<void>((resolve) => syslog.bind(0, '127.0.0.1', resolve));
    const file = join(dir, 'anchors.jsonl');
    const job = new AnchorJob(ctx().db, logger, {
      AUDIT_ANCHOR_FILE: file,
      AUDIT_ANCHOR_SYSLOG: `udp://127.0.0.1:${syslog.address().port}`,
    });
    try {
      const day = new Date('2031-03-04T00:10:00Z');
      const anchor = await job.run(day);
      const heads = await stack.database.query<{ chain_key: string; hash: string }>(
        'select chain_key, hash from audit.chain_heads order by chain_key',
      );
      expect(anchor!.heads.map((h) => [h.chain ?? '', h.head])).toEqual(heads.map((h) => [h.chain_key, h.hash]));
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(anchor);
      expect(lines.some((line) => JSON.parse(line).auditAnchor?.day === '2031-03-04')).toBe(true);
      // Later the same day (another replica, a restart): nothing more.
      expect(await job.run(new Date('2031-03-04T23:59:00Z'))).toBeNull();
      expect(await job.run(new Date('2031-03-05T00:00:01Z'))).not.toBeNull();
      expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(2);
      // One datagram per chain and anchor.
      await datagrams(heads.length * 2);
      expect(received[0]).toMatch(/^<110>1 2031-03-04T00:10:00.000Z \S+ earshot-audit - anchor - \{"day":"2031-03-04"/);
    } finally {
      syslog.close();
    }
  });
});
