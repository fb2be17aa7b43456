import type { Envelope } from '@earshot/contracts';

export interface OutgoingEvent {
  topic: string;
  /** Partition key: the company id, so one company's events stay in order. */
  key: string;
  envelope: Envelope;
}

export type EventHandler = (envelope: Envelope) => Promise<void>;

export interface Subscription {
  /** Consumer group: one per service (or per worker pool); each group gets every event once. */
  group: string;
  topics: readonly string[];
  handle: EventHandler;
}

/** The port every adapter implements (in-memory for all-in-one, Kafka for distributed). */
export interface EventBus {
  readonly kind: 'memory' | 'kafka';
  publish(events: readonly OutgoingEvent[]): Promise<void>;
  subscribe(subscription: Subscription): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** Delay before retrying a failed handler: doubling from 100 ms, capped at 30 s. */
export function retryDelay(attempt: number): number {
  return Math.min(30_000, 100 * 2 ** Math.min(attempt, 15));
}
