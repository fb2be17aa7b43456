import { sql } from 'drizzle-orm';
import {
  EventConsumer,
  MemoryBus,
  OutboxRelay,
  activeTrace,
  kitMigrations,
  migrate,
  on,
  withSpan,
  writeOutbox,
  type Database,
  type Db,
  type EventBus,
  type NewEvent,
  type TraceCarrier,
} from '../src';
import { openTestDatabase, traceToReceiver, type OtlpReceiver } from '../src/testing';
import { consumerContext, describeKafka, testKafkaBus, unique } from './kafka-support';

// The trace context across the outbox and the bus, with the SDK on in this process (OTLP/JSON to a
// receiver on loopback): written with the event, read back by a relay that did not write it (as
// after a restart), carried by the bus, continued by the consumer.
const SCHEMA = 'trace_context';
let database: Database;
let receiver: OtlpReceiver;
let stopTracing: () => Promise<void>;
const buses: EventBus[] = [];

beforeAll(async () => {
  ({ receiver, stop: stopTracing } = await traceToReceiver('kit-trace-test', 'kit-test'));
  database = await openTestDatabase();
  await migrate(database, SCHEMA, kitMigrations);
});
afterEach(async () => {
  await Promise.all(buses.splice(0).map((bus) => bus.stop()));
});
afterAll(async () => {
  await stopTracing();
  await database.close();
});

const signedOut = (id: string): NewEvent => ({
  type: 'user.signed_out',
  companyId: 'company-1',
  actor: { type: 'user', id },
  data: { id },
});

/** Writes one event inside a span (a request, say); answers the span's ids and the event's id. */
async function writeInSpan(userId: string) {
  return withSpan('the request', {}, async (span) => {
    const [envelope] = await database.db.transaction((tx) =>
      writeOutbox(tx as unknown as Db, SCHEMA, [signedOut(userId)]),
    );
    return { traceId: span.spanContext().traceId, spanId: span.spanContext().spanId, eventId: envelope!.id };
  });
}

/** A consumer recording the trace context its handler runs in, per event id. */
function tracingConsumer(group: string, topics?: string[]) {
  const seen = new Map<string, TraceCarrier | undefined>();
  const spec = on('user.signed_out', async (event) => void seen.set(event.id, activeTrace()));
  const consumer = new EventConsumer(
    consumerContext(database, SCHEMA),
    group,
    [topics ? { ...spec, topics } : spec],
    5,
  );
  return { consumer, seen };
}

test('the outbox row keeps the trace, and a relay started afresh publishes the event in it to the consumer', async () => {
  const written = await writeInSpan('restart-user');
  const [row] = await database.query<{ traceparent: string }>(
    `select traceparent from ${SCHEMA}.outbox where id = $1`,
    [written.eventId],
  );
  expect(row!.traceparent).toBe(`00-${written.traceId}-${written.spanId}-01`);

  // Nothing of the writer's is left but the row: a new bus, relay and consumer publish and handle it.
  const bus = new MemoryBus();
  buses.push(bus);
  const { consumer, seen } = tracingConsumer('traced-memory');
  await bus.subscribe(consumer.subscription());
  await bus.start();
  const relay = new OutboxRelay(database, SCHEMA, bus, 60_000, undefined, 'auth');
  await relay.publishPending();
  await bus.idle();
  expect(seen.get(written.eventId)?.traceparent).toContain(written.traceId);

  const publish = await receiver.until((spans) =>
    spans.find((s) => s.kind === 4 && s.attributes['messaging.message.id'] === written.eventId),
  );
  const handled = await receiver.until((spans) =>
    spans.find((s) => s.kind === 5 && s.attributes['messaging.message.id'] === written.eventId),
  );
  expect(publish).toMatchObject({
    traceId: written.traceId,
    parentSpanId: written.spanId,
    name: 'earshot.auth publish',
  });
  expect(publish.attributes['earshot.service']).toBe('auth');
  expect(handled).toMatchObject({ traceId: written.traceId, parentSpanId: publish.spanId });
  expect(handled.attributes['earshot.service']).toBe('traced-memory');
  expect(handled.attributes['messaging.consumer.group.name']).toBe('traced-memory');
});

test('an event written outside any trace is published without one', async () => {
  const [envelope] = await database.db.transaction((tx) =>
    writeOutbox(tx as unknown as Db, SCHEMA, [signedOut('untraced-user')]),
  );
  const [row] = await database.query<{ traceparent: string | null }>(
    `select traceparent from ${SCHEMA}.outbox where id = $1`,
    [envelope!.id],
  );
  expect(row!.traceparent).toBeNull();
});

test("a relay started inside a request leaves that request's trace for its later polls", async () => {
  const bus = new MemoryBus();
  buses.push(bus);
  await bus.start();
  const relay = new OutboxRelay(database, SCHEMA, bus, 20, undefined, 'auth');
  try {
    // The first pass runs in the request's trace, as a relay nudged after a request's commit does.
    const request = await withSpan('the request', {}, async (span) => {
      const [envelope] = await database.db.transaction((tx) =>
        writeOutbox(tx as unknown as Db, SCHEMA, [signedOut('nudging-user')]),
      );
      relay.start();
      return { traceId: span.spanContext().traceId, eventId: envelope!.id };
    });
    await receiver.until((spans) => spans.find((s) => s.attributes['messaging.message.id'] === request.eventId));
    // Written outside any trace and left to the next poll, which must not take the request's trace up.
    const [later] = await database.db.transaction((tx) =>
      writeOutbox(tx as unknown as Db, SCHEMA, [signedOut('polled-user')]),
    );
    const publish = await receiver.until((spans) =>
      spans.find((s) => s.kind === 4 && s.attributes['messaging.message.id'] === later!.id),
    );
    expect(publish.traceId).not.toBe(request.traceId);
    expect(publish.parentSpanId).toBe('');
    expect(publish.attributes['earshot.service']).toBe('auth');
  } finally {
    await relay.stop();
  }
});

describeKafka('on Kafka', () => {
  test('the trace context travels in the message headers to the consumer group', async () => {
    const topic = unique('traced');
    const written = await writeInSpan('kafka-user');
    // The row's topic is the catalogue's, shared by the run's suites: this test's own instead.
    await database.db.execute(sql`update trace_context.outbox set topic = ${topic} where id = ${written.eventId}`);
    const { consumer, seen } = tracingConsumer(unique('group'), [topic]);
    const reader = testKafkaBus();
    const writer = testKafkaBus();
    buses.push(reader, writer);
    await reader.subscribe(consumer.subscription());
    await reader.start();
    await new OutboxRelay(database, SCHEMA, writer, 60_000, undefined, 'auth').publishPending();
    const handled = await receiver.until((spans) =>
      spans.find((s) => s.kind === 5 && s.attributes['messaging.message.id'] === written.eventId),
    );
    expect(handled.traceId).toBe(written.traceId);
    expect(seen.get(written.eventId)?.traceparent).toContain(written.traceId);
  });
});
