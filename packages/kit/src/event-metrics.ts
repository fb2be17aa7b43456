import type { Logger } from 'pino';
import type { Database } from './db/database';
import type { EventBus } from './bus/types';
import { loggedSource, ScrapedMetric, type ScrapedSource } from './metrics';

const outboxBacklog = new ScrapedMetric(
  'earshot_outbox_backlog',
  'Events written to a service outbox and not yet published to the bus',
  ['service'],
);
const outboxOldest = new ScrapedMetric(
  'earshot_outbox_oldest_unpublished_seconds',
  'Age of the oldest unpublished outbox event (0 when none waits)',
  ['service'],
);
const parkedEvents = new ScrapedMetric(
  'earshot_events_parked',
  'Events whose handler kept failing, parked until replayed with `npm run events`',
  ['service'],
);
const consumerLag = new ScrapedMetric(
  'earshot_event_consumer_lag',
  'Events on a topic that a consumer group has not handled yet (Kafka: end offsets less committed; in-process bus: queued)',
  ['topic', 'group'],
);

const quoted = (schema: string) => `"${schema.replaceAll('"', '""')}"`;

/**
 * A service's outbox and parked events, read from its schema when Prometheus scrapes. Returns the
 * function that stops reporting them (the service stopped).
 */
export function watchServiceEvents(database: Database, service: string, schema: string, logger: Logger): () => void {
  const table = quoted(schema);
  const outbox = loggedSource(logger, `the ${service} outbox`, async () => {
    const [row] = await database.query<{ backlog: number }>(
      `select count(*)::int as backlog from ${table}.outbox where published_at is null`,
    );
    return [{ labels: { service }, value: row?.backlog ?? 0 }];
  });
  const oldest = loggedSource(logger, `the ${service} outbox`, async () => {
    const [row] = await database.query<{ oldest: number | null }>(
      `select extract(epoch from now() - min(created_at))::float8 as oldest from ${table}.outbox where published_at is null`,
    );
    return [{ labels: { service }, value: Math.max(0, row?.oldest ?? 0) }];
  });
  const parked = loggedSource(logger, `the ${service} parked events`, async () => {
    const [row] = await database.query<{ parked: number }>(
      `select count(*)::int as parked from ${table}.parked_events where parked_at is not null`,
    );
    return [{ labels: { service }, value: row?.parked ?? 0 }];
  });
  const removals = [outboxBacklog.add(outbox), outboxOldest.add(oldest), parkedEvents.add(parked)];
  return () => removals.forEach((remove) => remove());
}

/** A service module's own scraped metrics (see ServiceModule.metrics); returns the function that removes them. */
export function watchSources(sources: readonly ScrapedSource[], logger: Logger): () => void {
  const removals = sources.map(({ metric, what, read }) => metric.add(loggedSource(logger, what, read)));
  return () => removals.forEach((remove) => remove());
}

/** The bus's consumer lag per topic and group; returns the function that stops reporting it. */
export function watchConsumerLag(bus: EventBus, logger: Logger): () => void {
  const lag = bus.lag?.bind(bus);
  if (!lag) return () => undefined;
  return consumerLag.add(
    loggedSource(logger, 'the consumer lag', async () =>
      (await lag()).map(({ topic, group, lag: value }) => ({ labels: { topic, group }, value })),
    ),
  );
}
