import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { topicOf, type Actor, type EventData } from '@earshot/contracts';
import { buildEnvelope } from '@earshot/kit';
import { createTestStack, type TestStack } from '@earshot/kit/testing';
import { auditService } from '../src';
import { documentedHash } from './documented-hash';
import { canonicalEntry, ChainWalker, GENESIS, hashOf, linkOfPublished, type ChainEntry } from '../src/services/chain';
import { auditFeed } from '../src/services/stream';

// The all-in-one (no Kafka): GET /api/audit/stream follows one chain over HTTP as newline-delimited
// JSON, the lines shaped as audit.entry_recorded's data on Kafka.
type Line = EventData<'audit.entry_recorded'>;

let stack: TestStack;
let host: string;
let base: string;
const alice: Actor = { type: 'user', id: randomUUID(), email: 'alice@a.test', role: 'ADMIN', ip: '203.0.113.7' };

beforeAll(async () => {
  stack = await createTestStack([auditService]);
  host = await stack.tokenFor('HOST_ADMIN', null);
  await stack.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(stack.app.server.address() as AddressInfo).port}`;
}, 60_000);
afterAll(async () => stack.close());

const feed = () => auditFeed(stack.running.contexts.get('audit')!);

/** An event as a producer sends it; the audit service records it from the bus, like any other. */
async function signIn(companyId: string, tag: string) {
  const envelope = buildEnvelope({
    type: 'user.signed_in',
    companyId,
    actor: alice,
    data: { id: tag, email: alice.email!, method: 'password' },
  });
  await stack.bus.publish([{ topic: topicOf('user.signed_in'), key: companyId, envelope }]);
  return envelope;
}

/** Opens a stream and reads it line by line; `close` goes away as a client does. */
async function open(query: string) {
  const gone = new AbortController();
  const res = await fetch(`${base}/api/audit/stream?${query}`, {
    headers: { authorization: `Bearer ${host}` },
    signal: gone.signal,
  });
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  let blanks = 0;
  return {
    res,
    blanks: () => blanks,
    /** The next entry line (heartbeats, bare newlines, are counted and passed over). */
    async next(): Promise<Line> {
      for (;;) {
        const end = buffered.indexOf('\n');
        if (end >= 0) {
          const line = buffered.slice(0, end);
          buffered = buffered.slice(end + 1);
          if (line === '') blanks += 1;
          else return JSON.parse(line) as Line;
          continue;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('the stream ended');
        buffered += value;
      }
    },
    /** Waits for the first bare newline: the stream is open and its start is fixed. */
    async opened(): Promise<void> {
      while (!buffered.includes('\n')) {
        const { value, done } = await reader.read();
        if (done) throw new Error('the stream ended');
        buffered += value;
      }
    },
    close: () => gone.abort(),
  };
}

const storedHashes = async (companyId: string) =>
  stack.database.query<{ seq: string; prev_hash: string; hash: string }>(
    'select e.seq::text as seq, e.prev_hash, e.hash from audit.entries e where e.company_id = $1 order by e.seq',
    [companyId],
  );

test('the stream sends an entry recorded after it was opened, and not those before', async () => {
  const companyId = randomUUID();
  await signIn(companyId, 'before');
  await stack.settle();

  const stream = await open(`companyId=${companyId}`);
  expect(stream.res.status).toBe(200);
  expect(stream.res.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
  await stream.opened();
  const after = await signIn(companyId, 'after');
  const line = await stream.next();

  const [first, second] = await storedHashes(companyId);
  expect(line.entry.id).toBe(after.id);
  expect(line).toMatchObject({ companyId, seq: Number(second!.seq), prevHash: first!.hash, hash: second!.hash });
  expect(line.entry.prevHash).toBe(first!.hash);
  // The hash is the entry's own, recomputed from the line alone.
  expect(documentedHash(line.entry)).toBe(line.hash);

  // A client that goes away leaves nothing waiting on the server.
  expect(feed().waiting).toBeGreaterThan(0);
  stream.close();
  for (let probe = 0; feed().waiting > 0; probe++) {
    if (probe > 500) throw new Error('the stream still waits after its client went away');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
});

test('fromSeq sends the chain from that entry on, then what is recorded next, each linked to the one before', async () => {
  const companyId = randomUUID();
  for (const tag of ['one', 'two', 'three']) await signIn(companyId, tag);
  await stack.settle();
  const stored = await storedHashes(companyId);

  const stream = await open(`companyId=${companyId}&fromSeq=${stored[1]!.seq}`);
  const lines = [await stream.next(), await stream.next()];
  await signIn(companyId, 'four');
  lines.push(await stream.next());
  stream.close();

  expect(lines.map((l) => String(l.seq))).toEqual([stored[1]!.seq, stored[2]!.seq, expect.any(String)]);
  expect(lines[0]!.prevHash).toBe(stored[0]!.hash);
  lines.slice(1).forEach((line, i) => expect(line.prevHash).toBe(lines[i]!.hash));
  lines.forEach((line) => expect(documentedHash(line.entry)).toBe(line.hash));
});

test('bad input is a 400 naming the field, and the stream is the platform administrator’s alone', async () => {
  const bad = await stack.as(host, { method: 'GET', url: '/api/audit/stream?fromSeq=0' });
  expect(bad.statusCode).toBe(400);
  expect(bad.body).toContain('query.fromSeq');
  const admin = await stack.tokenFor('ADMIN', randomUUID());
  expect((await stack.as(admin, { method: 'GET', url: '/api/audit/stream' })).statusCode).toBe(403);
});

test('a published entry holds only as exactly its canonical form: nothing changed, nothing added', () => {
  const entry: ChainEntry = {
    id: randomUUID(),
    occurredAt: '2026-11-29T09:00:00.000Z',
    type: 'user.signed_in',
    version: 1,
    companyId: null,
    actor: alice,
    targetType: 'user',
    targetId: 'x',
    before: null,
    after: null,
    data: { id: 'x', email: alice.email, method: 'password' },
  };
  const hash = hashOf(entry, GENESIS);
  const published = { seq: 7, prevHash: GENESIS, hash, entry: canonicalEntry(entry, GENESIS) };
  const walk = (link: typeof published) => {
    const walker = new ChainWalker(GENESIS);
    walker.add(linkOfPublished(link));
    return walker.broken?.message;
  };
  expect(walk(published)).toBeUndefined();
  expect(
    walk({
      ...published,
      entry: { ...published.entry, data: { id: 'x', email: 'mallory@m.test', method: 'password' } },
    }),
  ).toMatch(/^entry 1 \(seq 7, id .+\) was changed after it was recorded$/);
  expect(
    walk({ ...published, entry: { ...published.entry, approvedBy: 'mallory' } as typeof published.entry }),
  ).toMatch(/was changed after it was recorded \(the entry it carries is not exactly its canonical form\)$/);
  expect(walk({ ...published, entry: { ...published.entry, prevHash: 'f'.repeat(64) } })).toMatch(
    /not exactly its canonical form/,
  );
});
