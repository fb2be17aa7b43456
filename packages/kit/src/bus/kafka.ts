import { Kafka, logLevel, type Consumer, type ITopicConfig, type Producer } from 'kafkajs';
import type { Logger } from 'pino';
import { Envelope, TOPICS } from '@earshot/contracts';
import { retryDelay, type EventBus, type OutgoingEvent, type Subscription } from './types';

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
}

/**
 * The topics created at start: every catalogue topic with the configured partitions (messages are
 * keyed by company, so partitions bound how many consumers of a group work in parallel) and
 * replication. Creating them explicitly, rather than letting the first publish auto-create them
 * with the broker's defaults, makes the partition count a setting of ours.
 */
export function kafkaTopicConfigs(topics: readonly string[], settings: { partitions: number; replicationFactor: number }): ITopicConfig[] {
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
  private readonly kafka: Kafka;
  private producer?: Producer;
  private readonly subscriptions: Subscription[] = [];
  private readonly consumers: Consumer[] = [];
  private stopping = false;
  /** Topics created (or found) by this process. */
  private readonly created = new Set<string>();

  constructor(private readonly options: KafkaBusOptions) {
    this.kafka = new Kafka({ clientId: options.clientId, brokers: options.brokers, logLevel: logLevel.WARN });
  }

  async publish(events: readonly OutgoingEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.ensureTopics();
    if (!this.producer) {
      this.producer = this.kafka.producer({ allowAutoTopicCreation: false, idempotent: true, maxInFlightRequests: 1 });
      await this.producer.connect();
    }
    const byTopic = new Map<string, OutgoingEvent[]>();
    for (const e of events) byTopic.set(e.topic, [...(byTopic.get(e.topic) ?? []), e]);
    await this.producer.sendBatch({
      topicMessages: [...byTopic].map(([topic, list]) => ({
        topic,
        messages: list.map((e) => ({ key: e.key, value: JSON.stringify(e.envelope), headers: { type: e.envelope.type } })),
      })),
    });
  }

  async subscribe(subscription: Subscription): Promise<void> {
    this.subscriptions.push(subscription);
  }

  /**
   * Creates the catalogue's topics and those subscribed to that this process has not created yet;
   * topics that exist already are left as they are (createTopics skips them).
   */
  async ensureTopics(): Promise<void> {
    const wanted = [...(this.options.topics ?? TOPICS), ...this.subscriptions.flatMap((s) => s.topics)].filter((t) => !this.created.has(t));
    if (wanted.length === 0) return;
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      await admin.createTopics({ topics: kafkaTopicConfigs(wanted, this.options), waitForLeaders: true });
      wanted.forEach((t) => this.created.add(t));
    } finally {
      await admin.disconnect();
    }
  }

  async start(): Promise<void> {
    await this.ensureTopics();
    const groups = new Map<string, Subscription[]>();
    for (const s of this.subscriptions) groups.set(s.group, [...(groups.get(s.group) ?? []), s]);
    for (const [group, subs] of groups) {
      const consumer = this.kafka.consumer({ groupId: group, allowAutoTopicCreation: false });
      await consumer.connect();
      const topics = [...new Set(subs.flatMap((s) => s.topics))];
      await consumer.subscribe({ topics, fromBeginning: this.options.fromBeginning ?? true });
      await consumer.run({
        autoCommit: true,
        eachMessage: async ({ topic, message }) => {
          if (!message.value) return;
          const parsed = Envelope.safeParse(JSON.parse(message.value.toString()));
          if (!parsed.success) {
            this.options.logger?.error({ topic, offset: message.offset }, 'skipping a message that is not an event envelope');
            return;
          }
          for (let attempt = 0; ; attempt++) {
            try {
              for (const s of subs) if (s.topics.includes(topic)) await s.handle(parsed.data);
              return;
            } catch (error) {
              // Shutting down: give up without committing the offset; the event is redelivered.
              if (this.stopping) throw error;
              this.options.logger?.error({ err: error, group, eventId: parsed.data.id }, 'event handler failed; retrying');
              await new Promise((r) => setTimeout(r, retryDelay(attempt)));
            }
          }
        },
      });
      this.consumers.push(consumer);
    }
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all(this.consumers.map((c) => c.disconnect()));
    await this.producer?.disconnect();
  }
}
