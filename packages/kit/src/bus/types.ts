import type { Envelope } from '@earshot/contracts';
import type { TraceCarrier } from '../tracing';

export interface OutgoingEvent {
  topic: string;
  /** Partition key: the company id, so one company's events stay in order. */
  key: string;
  envelope: Envelope;
  /** The publish span's trace context, carried to the consumers (Kafka headers). */
  trace?: TraceCarrier;
}

export type EventHandler = (envelope: Envelope) => Promise<void>;

export interface Subscription {
  /** Consumer group: one per service (or per worker pool); each group gets every event once. */
  group: string;
  topics: readonly string[];
  handle: EventHandler;
  /**
   * Takes several events that arrived together, in order (the service consumers': a batch is
   * applied in one transaction). Without it, `handle` gets them one at a time.
   */
  handleBatch?: (envelopes: readonly Envelope[]) => Promise<void>;
}

/** The most events handed to a subscription at once. */
export const MAX_BATCH = 200;

/** Hands events to a group's subscriptions, in order; a throw leaves the whole batch to be delivered again. */
export async function deliver(
  subscriptions: readonly Pick<Subscription, 'handle' | 'handleBatch'>[],
  envelopes: readonly Envelope[],
): Promise<void> {
  for (const subscription of subscriptions) {
    if (subscription.handleBatch) await subscription.handleBatch(envelopes);
    else for (const envelope of envelopes) await subscription.handle(envelope);
  }
}

/** Events published to a topic that a consumer group has not handled yet. */
export interface ConsumerLag {
  topic: string;
  group: string;
  lag: number;
}

/** The port every adapter implements (in-memory for all-in-one, Kafka for distributed). */
export interface EventBus {
  readonly kind: 'memory' | 'kafka';
  publish(events: readonly OutgoingEvent[]): Promise<void>;
  subscribe(subscription: Subscription): Promise<void>;
  /**
   * Starts consuming what was subscribed: resolves once every consumer group has joined (on Kafka
   * after the broker's initial rebalance delay), so a process that waits for it is ready to handle
   * its events and knows of ended sessions.
   */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** How far behind each of this process's consumer groups is, per topic (for /metrics). */
  lag?(): Promise<ConsumerLag[]>;
}

/** Delay before retrying a failed handler: doubling from 100 ms, capped at 30 s. */
export function retryDelay(attempt: number): number {
  return Math.min(30_000, 100 * 2 ** Math.min(attempt, 15));
}
