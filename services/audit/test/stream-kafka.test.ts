import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { AUDIT_TOPIC, topicOf, type Actor, type Envelope, type EventData } from '@earshot/contracts';
import {
  buildEnvelope,
  buildServer,
  configSchemaFor,
  mountServices,
  startServices,
  TokenVerifier,
  type BaseConfig,
  type Database,
  type EventBus,
  type RunningServices,
} from '@earshot/kit';
import { openTestDatabase, TEST_JWT_SECRET, TEST_SECRETS_KEY } from '@earshot/kit/testing';
import { runAuditCommand } from '../../../scripts/audit';
import { describeKafka, FAST_GROUP, testKafkaBus, unique } from '../../../packages/kit/test/kafka-support';
import { auditService } from '../src';
import { documentedHash } from './documented-hash';
import { canonicalEntry, GENESIS, hashOf, type ChainEntry } from '../src/services/chain';

// The audit service in distributed mode, on the mock Kafka cluster: events it reads come out on
// earshot.audit as chained entries, and `npm run audit -- follow` checks them as they arrive.
type Published = EventData<'audit.entry_recorded'>;

const alice: Actor = { type: 'user', id: randomUUID(), email: 'alice@a.test', role: 'ADMIN', ip: '203.0.113.7' };
const dir = mkdtempSync(join(tmpdir(), 'earshot-audit-kafka-'));
let database: Database;
let bus: EventBus | undefined;
let siem: EventBus | undefined;
let running: RunningServices | undefined;
let app: ReturnType<typeof buildServer> | undefined;

/** Resolves when `ready()` holds after one of the callbacks it is hooked to, or fails after `ms`. */
function waitFor(ready: () => boolean, hook: (check: () => void) => void, ms: number, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms);
    const check = () => {
      if (!ready()) return;
      clearTimeout(timer);
      resolve();
    };
    hook(check);
    check();
  });
}

/** Runs the follower until it printed what `until` waits for (then stops it) or a chain broke. */
async function follow(argv: string[], until: (lines: string[]) => boolean) {
  const lines: string[] = [];
  const notes: string[] = [];
  const stop = new AbortController();
  const code = await runAuditCommand(['follow', '--group', unique('follow'), ...argv], {
    env: { KAFKA_BROKERS: process.env.KAFKA_BROKERS },
    print: (line) => {
      lines.push(line);
      if (until(lines)) stop.abort();
    },
    note: (line) => notes.push(line),
    signal: stop.signal,
    timings: FAST_GROUP,
  });
  return { code, lines, notes };
}

beforeAll(async () => {
  database = await openTestDatabase();
  const logger = pino({ level: 'silent' });
  const config = configSchemaFor([auditService]).parse({
    LOG_LEVEL: 'silent',
    DATA_DIR: dir,
    JWT_SECRET: TEST_JWT_SECRET,
    SECRETS_KEY: TEST_SECRETS_KEY,
    OUTBOX_POLL_MS: '50',
  }) as BaseConfig;
  if (!process.env.KAFKA_BROKERS) return;
  bus = testKafkaBus();
  app = buildServer({ logLevel: 'silent', name: 'audit', logger });
  const tokens = new TokenVerifier(config.ACCESS_TOKEN_TTL_SECONDS);
  running = await mountServices(app, [auditService], { config, database, bus, logger, tokens });
  await app.ready();
  await startServices([auditService], running);
  await bus.start();
}, 90_000);

afterAll(async () => {
  await siem?.stop();
  await app?.close();
  await running?.stop();
  await bus?.stop();
  await database.close();
  rmSync(dir, { recursive: true, force: true });
});

describeKafka('the audit trail on Kafka', () => {
  test('every entry arrives on earshot.audit linked to the one before, and `audit -- follow` verifies them', async () => {
    const companyId = randomUUID();
    const sent: Envelope[] = Array.from({ length: 5 }, (_, i) =>
      buildEnvelope({
        type: 'user.signed_in',
        companyId,
        actor: alice,
        data: { id: `kafka-${i}`, email: alice.email!, method: 'password' },
      }),
    );
    const received: Published[] = [];
    let arrived = () => {};
    siem = testKafkaBus();
    await siem.subscribe({
      group: unique('siem'),
      topics: [AUDIT_TOPIC],
      handle: async (envelope) => {
        const data = envelope.data as unknown as Published;
        if (envelope.type === 'audit.entry_recorded' && data.companyId === companyId) received.push(data);
        arrived();
      },
    });
    await siem.start();
    await bus!.publish(sent.map((envelope) => ({ topic: topicOf('user.signed_in'), key: companyId, envelope })));
    await waitFor(
      () => received.length >= sent.length,
      (check) => (arrived = check),
      60_000,
      'earshot.audit',
    );

    // In chain order from the genesis, each linked to the one before, each hash the entry's own.
    expect(received.map((r) => r.entry.id)).toEqual(sent.map((e) => e.id));
    let previous = GENESIS;
    for (const r of received) {
      expect(r.prevHash).toBe(previous);
      expect(r.entry.prevHash).toBe(r.prevHash);
      expect(documentedHash(r.entry)).toBe(r.hash);
      previous = r.hash;
    }
    const stored = await database.query<{ seq: string; hash: string }>(
      'select e.seq::text as seq, e.hash from audit.entries e where e.company_id = $1 order by e.seq',
      [companyId],
    );
    expect(received.map((r) => [String(r.seq), r.hash])).toEqual(stored.map((s) => [s.seq, s.hash]));

    // The reference consumer: every entry printed as a JSON line, exit 0 when told to stop.
    const whole = await follow(['--company', companyId], (lines) => lines.length >= sent.length);
    expect(whole.code).toBe(0);
    expect(whole.lines.map((line) => (JSON.parse(line) as Published).hash)).toEqual(received.map((r) => r.hash));
    expect(whole.notes).toEqual([expect.stringContaining(`from its first entry (seq ${received[0]!.seq})`)]);

    // A late start verifies from the entry asked for, taking its link as given (and saying so).
    const late = await follow(
      ['--company', companyId, '--from-seq', String(received[2]!.seq)],
      (lines) => lines.length >= 3,
    );
    expect(late.code).toBe(0);
    expect(late.lines.map((line) => (JSON.parse(line) as Published).seq)).toEqual(received.slice(2).map((r) => r.seq));
    expect(late.notes[0]).toContain(`from seq ${received[2]!.seq}, which follows ${received[1]!.hash.slice(0, 16)}`);
  }, 180_000);

  test('`audit -- follow` exits non-zero at an entry whose hash was altered, naming it', async () => {
    // A chain of three written with the chain's own hashing, the third published with its hash changed.
    const companyId = randomUUID();
    let prevHash = GENESIS;
    const links = Array.from({ length: 3 }, (_, i) => {
      const entry: ChainEntry = {
        id: randomUUID(),
        occurredAt: new Date(Date.UTC(2026, 10, 29, 9, 0, i)).toISOString(),
        type: 'user.signed_in',
        version: 1,
        companyId,
        actor: alice,
        targetType: 'user',
        targetId: `forged-${i}`,
        before: null,
        after: null,
        data: { id: `forged-${i}`, email: alice.email, method: 'password' },
      };
      const hash = hashOf(entry, prevHash);
      const link = { companyId, seq: 1_000 + i, prevHash, hash, entry: canonicalEntry(entry, prevHash) };
      prevHash = hash;
      return link;
    });
    const altered = { ...links[2]!, hash: `${links[2]!.hash.slice(0, 63)}${links[2]!.hash.endsWith('0') ? '1' : '0'}` };
    const publisher = testKafkaBus();
    try {
      await publisher.publish(
        [links[0]!, links[1]!, altered].map((data) => ({
          topic: AUDIT_TOPIC,
          key: companyId,
          envelope: buildEnvelope({ type: 'audit.entry_recorded', companyId, actor: alice, data }),
        })),
      );
    } finally {
      await publisher.stop();
    }

    const result = await follow(['--company', companyId], () => false);
    expect(result.code).toBe(1);
    expect(result.lines).toHaveLength(2);
    expect(result.notes.at(-1)).toMatch(
      new RegExp(
        `^BROKEN company ${companyId}: entry 3 \\(seq 1002, id ${links[2]!.entry.id}\\) was changed after it was recorded \\(partition \\d+, offset \\d+\\)$`,
      ),
    );
  }, 120_000);
});
