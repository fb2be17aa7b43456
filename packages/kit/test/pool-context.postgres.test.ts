import pg from 'pg';
import { context, trace } from '@opentelemetry/api';
import { withSpan, type Database } from '../src';
import { openThrowawayDatabase, traceToReceiver } from '../src/testing';

// The SQL instrumentation records a statement under whatever span is active when pg's Client.query
// runs (and skips it outside a trace). A query that waited for the pool's only connection must run
// in the context of the work that made it, not in the trace of the request that opened the
// connection, whose context the connection's socket keeps.
let stopTracing: () => Promise<void>;
let database: Database;
/** The trace id active in Client.query, per statement, as the instrumentation would see it. */
const seen = new Map<string, string | undefined>();
const query = pg.Client.prototype.query;

beforeAll(async () => {
  ({ stop: stopTracing } = await traceToReceiver('kit-pool-context-test', 'kit-test'));
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    if (typeof args[0] === 'string') seen.set(args[0], trace.getSpan(context.active())?.spanContext().traceId);
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  database = await withSpan('the request that opens the connection', {}, () =>
    openThrowawayDatabase(process.env.DATABASE_URL!, 'earshot_pool_context', 1),
  );
});
afterAll(async () => {
  pg.Client.prototype.query = query;
  await database.close();
  await stopTracing();
});

test('a query that waited for a connection runs in its own context, outside any trace', async () => {
  // One connection: the second statement waits for the first to give it back.
  await Promise.all([database.query("select 'first'"), database.query("select 'second'")]);
  expect(seen.has("select 'second'")).toBe(true);
  expect(seen.get("select 'first'")).toBeUndefined();
  expect(seen.get("select 'second'")).toBeUndefined();
});

test('a query that waited inside a traced request stays in that request’s trace', async () => {
  const traceId = await withSpan('a traced request', {}, async (span) => {
    await Promise.all([database.query("select 'third'"), database.query("select 'fourth'")]);
    return span.spanContext().traceId;
  });
  expect(seen.get("select 'third'")).toBe(traceId);
  expect(seen.get("select 'fourth'")).toBe(traceId);
});
