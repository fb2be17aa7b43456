import { randomUUID } from 'node:crypto';
import { eventDefinition, type Actor, type AuditVerifyResult, type Envelope } from '@earshot/contracts';
import { buildEnvelope } from '@earshot/kit';
import { createTestStack, type TestStack } from '@earshot/kit/testing';
import { runAuditCommand } from '../../../scripts/audit';
import { auditService } from '../src';
import { auditRetention } from '../src/services/retention';

// Audit retention: a company's oldest entries are cut from the start of its hash chain,
// the kept chain still verifies from the recorded base, nothing else can be deleted, a broken
// stretch is never cut away, and a held company keeps everything. Entries are backdated by their
// events' time; the job is called with the time it runs at.

let stack: TestStack;
let host: string;
const DAY = 86_400_000;
const alice: Actor = { type: 'user', id: randomUUID(), email: 'alice@a.test', role: 'ADMIN' };
const hostActor: Actor = { type: 'user', id: randomUUID(), email: 'host@earshot.test', role: 'HOST_ADMIN' };

beforeAll(async () => {
  stack = await createTestStack([auditService]);
  host = await stack.tokenFor('HOST_ADMIN', null);
}, 60_000);
afterAll(async () => stack.close());

const ctx = () => stack.running.contexts.get('audit')!;
const publish = async (...envelopes: Envelope[]) => {
  await stack.bus.publish(
    envelopes.map((envelope) => ({
      topic: eventDefinition(envelope.type).topic,
      key: envelope.companyId ?? 'platform',
      envelope,
    })),
  );
  await stack.settle();
};
/** n sign-ins of the company, `daysAgo` days before `now`, a second apart. */
const signIns = (companyId: string | null, n: number, daysAgo: number, now: Date) =>
  Array.from({ length: n }, (_, i) => ({
    ...buildEnvelope({
      type: 'user.signed_in',
      companyId,
      actor: alice,
      data: { id: `u${i}`, email: alice.email!, method: 'password' },
    }),
    occurredAt: new Date(now.getTime() - daysAgo * DAY + i * 1000).toISOString(),
  }));
const setPolicy = (companyId: string, auditDays: number | null) => {
  const policies = (days: number | null) => ({
    redaction: 'off' as const,
    keepOriginal: false,
    encryption: false,
    retention: { recordingsDays: null, chatsDays: null, auditDays: days },
  });
  return publish(
    buildEnvelope({
      type: 'company.policies_changed',
      companyId,
      actor: hostActor,
      data: { id: companyId, before: policies(null), after: policies(auditDays) },
    }),
  );
};
const entriesOf = async (companyId: string | null) =>
  (
    await stack.database.query<{ seq: string; type: string }>(
      "select seq, type from audit.entries where coalesce(company_id, '') = $1 order by seq",
      [companyId ?? ''],
    )
  ).map((r) => ({ seq: Number(r.seq), type: r.type }));
/** Changes rows the way someone with SQL access would: with the append-only trigger switched off. */
async function tamper(statement: string, params: unknown[]) {
  await stack.database.query('alter table audit.entries disable trigger entries_no_update_or_delete');
  try {
    await stack.database.query(statement, params);
  } finally {
    await stack.database.query('alter table audit.entries enable trigger entries_no_update_or_delete');
  }
}
async function verify(companyId: string) {
  const res = await stack.as(host, { method: 'GET', url: `/api/audit/verify?companyId=${companyId}` });
  return res.json() as AuditVerifyResult;
}

test('entries older than auditDays are cut from the start; the kept chain verifies from its base; the cut is audited', async () => {
  const company = randomUUID();
  const now = new Date();
  await publish(...signIns(company, 6, 400, now), ...signIns(null, 3, 400, now));
  await setPolicy(company, 365);
  await publish(...signIns(company, 2, 10, now));
  const before = await entriesOf(company);
  expect(before).toHaveLength(9);

  const reports = await auditRetention(ctx()).run(now);
  expect(reports).toEqual([
    {
      service: 'audit',
      removed: { entries: 6 },
      days: 365,
      olderThan: new Date(now.getTime() - 365 * DAY).toISOString(),
      held: 0,
    },
  ]);
  await stack.settle();
  // What is left: the policy change, the recent sign-ins and the retention's own report, in order.
  expect((await entriesOf(company)).map((e) => e.type)).toEqual([
    'company.policies_changed',
    'user.signed_in',
    'user.signed_in',
    'retention.applied',
  ]);
  const checked = await verify(company);
  expect(checked).toMatchObject({ ok: true, entries: 4 });
  const cut = before[5]!.seq;
  const [head] = await stack.database.query<{ base_seq: string; pruned: string }>(
    'select base_seq, pruned from audit.chain_heads where chain_key = $1',
    [company],
  );
  expect({ base: Number(head!.base_seq), pruned: Number(head!.pruned) }).toEqual({ base: cut, pruned: 6 });
  expect(
    await stack.database.query('select removed::int as removed from audit.chain_checkpoints where chain_key = $1', [
      company,
    ]),
  ).toEqual([{ removed: 6 }]);
  // The platform's chain is never cut, and the CLI verifies the cut chain from the database too.
  expect(await entriesOf(null)).toHaveLength(3);
  const lines: string[] = [];
  expect(
    await runAuditCommand(['verify', '--company', company], {
      database: stack.database,
      env: { ...process.env, DATABASE_URL: '' },
      print: (l) => lines.push(l),
    }),
  ).toBe(0);
  expect(lines[0]).toMatch(/^ok .* 4 entries/);

  // Run again: nothing more is due.
  expect(await auditRetention(ctx()).run(now)).toEqual([]);
});

test('the trigger still refuses every other delete: without the pruning flag, and with it past the recorded base', async () => {
  const company = randomUUID();
  const now = new Date();
  await publish(...signIns(company, 3, 400, now));
  await setPolicy(company, 365);
  await auditRetention(ctx()).run(now);
  await stack.settle();
  const kept = await entriesOf(company);
  await expect(stack.database.query('delete from audit.entries where seq = $1', [kept[0]!.seq])).rejects.toThrow(
    /append-only/,
  );
  await expect(
    stack.database.execInTransaction(
      `select set_config('audit.pruning', 'on', true); delete from audit.entries where seq = ${kept[0]!.seq}`,
      'test',
    ),
  ).rejects.toThrow(/append-only/);
  expect(await entriesOf(company)).toEqual(kept);
  // Cutting the first kept entry outside the service (trigger off) breaks the link at the new first one.
  await tamper('delete from audit.entries where seq = $1', [kept[0]!.seq]);
  expect((await verify(company)).brokenAt).toMatchObject({ position: 1, reason: 'link' });
});

test('a changed old entry is not cut away: the stretch stays, as evidence, and verify names it', async () => {
  const company = randomUUID();
  const now = new Date();
  await publish(...signIns(company, 4, 400, now));
  await setPolicy(company, 365);
  const [second] = (await entriesOf(company)).slice(1);
  await tamper(`update audit.entries set data = jsonb_set(data, '{method}', '"google"') where seq = $1`, [second!.seq]);
  expect(await auditRetention(ctx()).run(now)).toEqual([]);
  expect(await entriesOf(company)).toHaveLength(5);
  expect((await verify(company)).brokenAt).toMatchObject({ position: 2, reason: 'content' });
});

test('a held company keeps its whole log until the hold is lifted', async () => {
  const company = randomUUID();
  const now = new Date();
  await publish(...signIns(company, 3, 400, now));
  await setPolicy(company, 365);
  await publish(
    buildEnvelope({
      type: 'company.hold_changed',
      companyId: company,
      actor: hostActor,
      data: { id: company, hold: true, reason: 'Regulator' },
    }),
  );
  expect(await auditRetention(ctx()).run(now)).toEqual([]);
  expect(await entriesOf(company)).toHaveLength(5);
  await publish(
    buildEnvelope({
      type: 'company.hold_changed',
      companyId: company,
      actor: hostActor,
      data: { id: company, hold: false, reason: 'Closed' },
    }),
  );
  expect((await auditRetention(ctx()).run(now)).map((r) => r.removed)).toEqual([{ entries: 3 }]);
  expect((await verify(company)).ok).toBe(true);
});
