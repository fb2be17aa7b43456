import type { Admin, Consumer, ConsumerConfig, IHeaders, ITopicConfig, Kafka, Partitioners, Producer } from 'kafkajs';
import type { Logger } from 'pino';
import { Envelope, TOPICS } from '@earshot/contracts';
import { carryTrace, type TraceCarrier } from '../tracing';
import {
  deliver,
  MAX_BATCH,
  retryDelay,
  type ConsumerLag,
  type EventBus,
  type OutgoingEvent,
  type Subscription,
} from './types';

/** A message's envelope; undefined for anything else (not JSON, or not an envelope): a retry cannot mend it. */
function envelopeOf(text: string): Envelope | undefined {
  try {
    const parsed = Envelope.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The W3C trace context headers of a message, as strings. */
function traceHeaders(headers: IHeaders | undefined): TraceCarrier | undefined {
  const carrier: TraceCarrier = {};
  for (const name of ['traceparent', 'tracestate']) {
    const value = headers?.[name];
    if (value !== undefined) carrier[name] = value.toString();
  }
  return carrier.traceparent ? carrier : undefined;
}

export interface KafkaBusOptions {
  brokers: string[];
  clientId: string;
  logger?: Logger;
  /** Read topics from the start when a group is new (true in tests and for audit replays). */
  fromBeginning?: boolean;
  /** Partitions and replication of the topics this bus creates at start. */
  partitions: number;
  replicationFactor: number;
  /** Topics to create (default: every topic of the event catalogue). */
  topics?: readonly string[];
  /**
   * `create` (default): create the topics with `partitions` and `replicationFactor`, and where the
   * broker refuses (as librdkafka's mock cluster does), warn and rely on its auto-creation.
   * `broker`: never create; the broker auto-creates topics on first use, with its own defaults.
   */
  topicCreation?: KafkaTopicCreation;
  /** Consumer group timings (kafkajs's): tests lower them, as the mock cluster answers a fetch only after its full wait. */
  group?: Pick<ConsumerConfig, 'sessionTimeout' | 'rebalanceTimeout' | 'heartbeatInterval' | 'maxWaitTimeInMs'>;
}

/** KAFKA_TOPIC_CREATION: who creates the topics (see KafkaBusOptions.topicCreation). */
export type KafkaTopicCreation = 'create' | 'broker';

/**
 * The topics created at start: every catalogue topic with the configured partitions (messages are
 * keyed by company, so partitions bound how many consumers of a group work in parallel) and
 * replication. Creating them explicitly, rather than letting the first publish auto-create them
 * with the broker's defaults, makes the partition count a setting of ours.
 */
export function kafkaTopicConfigs(
  topics: readonly string[],
  settings: { partitions: number; replicationFactor: number },
): ITopicConfig[] {
  return [...new Set(topics)].sort().map((topic) => ({
    topic,
    numPartitions: settings.partitions,
    replicationFactor: settings.replicationFactor,
    configEntries: [{ name: 'cleanup.policy', value: 'delete' }],
  }));
}

/**
 * Kafka adapter: one topic per domain, messages keyed by company id, one consumer group per
 * service. An offset is committed only after the handler succeeded, so delivery is at least once.
 */
export class KafkaBus implements EventBus {
  readonly kind = 'kafka' as const;
  private client?: Promise<{ kafka: Kafka; createPartitioner: typeof Partitioners.DefaultPartitioner }>;
  private producer?: Promise<Producer>;
  /** Connected on the first scrape of the lag, and kept. */
  private admin?: Promise<Admin>;
  private readonly subscriptions: Subscription[] = [];
  private readonly consumers: Consumer[] = [];
  private stopping = false;
  private readonly timers = new Set<NodeJS.Timeout>();
  /** Topics created (or found) by this process. */
  private readonly created = new Set<string>();
  /** True when the broker creates topics on first use: by setting, or because it refused our createTopics. */
  private autoCreate: boolean;

  constructor(private readonly options: KafkaBusOptions) {
    this.autoCreate = options.topicCreation === 'broker';
  }

  /**
   * kafkajs is imported on first use: a process on the in-process bus (the all-in-one without
   * KAFKA_BROKERS) never loads it, as it still imports this module.
   */
  private async kafka(): Promise<Kafka> {
    return (await this.connection()).kafka;
  }

  private connection() {
    this.client ??= import('kafkajs').then(({ Kafka, logLevel, Partitioners }) => ({
      kafka: new Kafka({ clientId: this.options.clientId, brokers: this.options.brokers, logLevel: logLevel.WARN }),
      createPartitioner: Partitioners.DefaultPartitioner,
    }));
    return this.client;
  }

  async publish(events: readonly OutgoingEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.ensureTopics();
    // One producer, connected once, even when several outbox relays publish at the same time.
    this.producer ??= this.connectProducer().catch((error: unknown) => {
      this.producer = undefined;
      throw error;
    });
    const producer = await this.producer;
    const byTopic = new Map<string, OutgoingEvent[]>();
    for (const e of events) byTopic.set(e.topic, [...(byTopic.get(e.topic) ?? []), e]);
    await producer.sendBatch({
      topicMessages: [...byTopic].map(([topic, list]) => ({
        topic,
        messages: list.map((e) => ({
          key: e.key,
          value: JSON.stringify(e.envelope),
          headers: { type: e.envelope.type, ...e.trace },
        })),
      })),
    });
  }

  /**
   * An idempotent producer (a retried send is written once), unless the broker cannot issue
   * producer ids: kafkajs asks the controller, and librdkafka's mock cluster names one that does
   * not exist. Then a plain producer, said in the log: a retried send may write an event twice,
   * which the consumers' record of applied events absorbs.
   */
  private async connectProducer(): Promise<Producer> {
    const { kafka, createPartitioner } = await this.connection();
    const settings = { allowAutoTopicCreation: this.autoCreate, maxInFlightRequests: 1, createPartitioner };
    const idempotent = kafka.producer({ ...settings, idempotent: true });
    try {
      await idempotent.connect();
      return idempotent;
    } catch (error) {
      await idempotent.disconnect();
      if (!(error instanceof Error && error.name === 'KafkaJSBrokerNotFound')) throw error;
      this.options.logger?.warn(
        { err: error },
        'the Kafka broker cannot issue producer ids (no controller known): publishing without idempotence',
      );
      const plain = kafka.producer(settings);
      await plain.connect();
      return plain;
    }
  }

  async subscribe(subscription: Subscription): Promise<void> {
    this.subscriptions.push(subscription);
  }

  /**
   * Creates the catalogue's topics and those subscribed to that this process has not created yet;
   * topics that exist already are left as they are (createTopics skips them). A broker that
   * cannot be reached fails the start; one that refuses to create topics is left to create them
   * itself on first use (said once in the log, as its partition count is then not ours).
   */
  async ensureTopics(): Promise<void> {
    if (this.autoCreate) return;
    const wanted = [...(this.options.topics ?? TOPICS), ...this.subscriptions.flatMap((s) => s.topics)].filter(
      (t) => !this.created.has(t),
    );
    if (wanted.length === 0) return;
    // Few retries: the broker answered the connection, so a refusal is an answer, not a hiccup,
    // and kafkajs's default back-off would hold every process's start for about 9 s.
    const admin = (await this.kafka()).admin({ retry: { retries: 2 } });
    await admin.connect();
    try {
      await admin.createTopics({ topics: kafkaTopicConfigs(wanted, this.options), waitForLeaders: true });
      wanted.forEach((t) => this.created.add(t));
    } catch (error) {
      this.autoCreate = true;
      this.options.logger?.warn(
        { err: error, topics: wanted },
        "the Kafka broker refused to create topics (KAFKA_TOPIC_CREATION=create): relying on its auto-creation, so topics get the broker's default partitions, not KAFKA_PARTITIONS",
      );
    } finally {
      await admin.disconnect();
    }
  }

  async start(): Promise<void> {
    await this.ensureTopics();
    const groups = new Map<string, Subscription[]>();
    for (const s of this.subscriptions) groups.set(s.group, [...(groups.get(s.group) ?? []), s]);
    // Joined side by side: each join waits for the group's rebalance delay (seconds).
    await Promise.all([...groups].map(([group, subs]) => this.startGroup(group, subs)));
  }

  private async startGroup(group: string, subs: readonly Subscription[]): Promise<void> {
    const consumer = (await this.kafka()).consumer({
      groupId: group,
      allowAutoTopicCreation: this.autoCreate,
      ...this.options.group,
    });
    this.consumers.push(consumer);
    // kafkajs restarts a consumer after errors it deems retriable only; after any other (a broker's
    // unexpected answer during a rebalance, say) the service would stop reading its events for good.
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      if (payload.restart || this.stopping) return;
      this.options.logger?.error(
        { err: payload.error, group },
        'Kafka consumer stopped on an error; starting it again',
      );
      this.consumers.splice(this.consumers.indexOf(consumer), 1);
      this.restartLater(group, subs);
    });
    await consumer.connect();
    const topics = [...new Set(subs.flatMap((s) => s.topics))];
    await consumer.subscribe({ topics, fromBeginning: this.options.fromBeginning ?? true });
    // Batches as fetched from a partition (one company's events stay in order), handed on in
    // chunks; a chunk's offsets are resolved (and committed) only after it was handled.
    await consumer.run({
      autoCommit: true,
      eachBatchAutoResolve: false,
      eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
        const targets = subs.filter((s) => s.topics.includes(batch.topic));
        for (let start = 0; start < batch.messages.length; start += MAX_BATCH) {
          if (!isRunning() || isStale()) return;
          const chunk = batch.messages.slice(start, start + MAX_BATCH);
          const envelopes = chunk.flatMap((message) => {
            if (!message.value) return [];
            const parsed = envelopeOf(message.value.toString());
            if (!parsed)
              this.options.logger?.error(
                { topic: batch.topic, offset: message.offset },
                'skipping a message that is not an event envelope',
              );
            return parsed ? [carryTrace(parsed, traceHeaders(message.headers))] : [];
          });
          await this.deliverWithRetries(group, targets, envelopes, heartbeat);
          resolveOffset(chunk.at(-1)!.offset);
          await heartbeat();
        }
      },
    });
  }

  private restartLater(group: string, subs: readonly Subscription[]): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (this.stopping) return;
      this.startGroup(group, subs).catch((error: unknown) => {
        this.options.logger?.error({ err: error, group }, 'Kafka consumer could not start again; retrying');
        this.restartLater(group, subs);
      });
    }, 1_000);
    this.timers.add(timer);
  }

  /** Retries a chunk until it is handled (its events are idempotent), unless the bus is stopping. */
  private async deliverWithRetries(
    group: string,
    targets: readonly Subscription[],
    envelopes: readonly Envelope[],
    heartbeat: () => Promise<void>,
  ): Promise<void> {
    if (envelopes.length === 0) return;
    for (let attempt = 0; ; attempt++) {
      try {
        await deliver(targets, envelopes);
        return;
      } catch (error) {
        // Shutting down: give up without resolving the offsets; the events are redelivered.
        if (this.stopping) throw error;
        this.options.logger?.error(
          { err: error, group, eventId: envelopes[0]!.id, events: envelopes.length },
          'event handler failed; retrying',
        );
        await new Promise((r) => setTimeout(r, retryDelay(attempt)));
        // Still alive for the group while retrying, or its partitions would go to another member.
        await heartbeat();
      }
    }
  }

  /**
   * Each group's lag per topic: the partitions' end offsets less the group's committed ones. A
   * partition the group has not committed on yet counts from where it will start reading.
   */
  async lag(): Promise<ConsumerLag[]> {
    const groups = new Map<string, Set<string>>();
    for (const s of this.subscriptions) groups.set(s.group, new Set([...(groups.get(s.group) ?? []), ...s.topics]));
    if (groups.size === 0) return [];
    this.admin ??= (async () => {
      const admin = (await this.kafka()).admin({ retry: { retries: 1 } });
      await admin.connect();
      return admin;
    })().catch((error: unknown) => {
      this.admin = undefined;
      throw error;
    });
    const admin = await this.admin;
    const topics = [...new Set([...groups.values()].flatMap((set) => [...set]))];
    // A topic nobody has published to yet may not exist: it has no lag to report.
    const found = await Promise.all(
      topics.map(async (t) => [t, await admin.fetchTopicOffsets(t).catch(() => null)] as const),
    );
    const ends = new Map(found.filter((entry) => entry[1] !== null));
    const fromBeginning = this.options.fromBeginning ?? true;
    const lags: ConsumerLag[] = [];
    for (const [group, set] of groups) {
      const existing = [...set].filter((t) => ends.has(t));
      if (existing.length === 0) continue;
      for (const { topic, partitions } of await admin.fetchOffsets({ groupId: group, topics: existing })) {
        let lag = 0;
        for (const end of ends.get(topic) ?? []) {
          const committed = Number(partitions.find((p) => p.partition === end.partition)?.offset ?? -1);
          const start = committed >= 0 ? committed : fromBeginning ? Number(end.low) : Number(end.high);
          lag += Math.max(0, Number(end.high) - start);
        }
        lags.push({ topic, group, lag });
      }
    }
    return lags;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    const admin = await this.admin?.catch(() => undefined);
    this.admin = undefined;
    await admin?.disconnect();
    this.timers.forEach((timer) => clearTimeout(timer));
    await Promise.all(this.consumers.map((c) => c.disconnect()));
    const producer = await this.producer?.catch(() => undefined);
    await producer?.disconnect();
  }
}
