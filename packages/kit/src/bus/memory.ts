import type { Logger } from 'pino';
import type { Envelope } from '@earshot/contracts';
import { carryTrace } from '../tracing';
import {
  deliver,
  MAX_BATCH,
  retryDelay,
  type ConsumerLag,
  type EventBus,
  type OutgoingEvent,
  type Subscription,
} from './types';

interface Group {
  topics: Set<string>;
  subscriptions: Pick<Subscription, 'handle' | 'handleBatch'>[];
  queue: Envelope[];
  draining: boolean;
}

/**
 * In-process bus for the all-in-one mode. Each consumer group has its own ordered queue, so a slow
 * or failing consumer delays only itself; what has queued up is delivered as a batch; a failing
 * handler is retried with back-off, its whole batch again (at least once, like Kafka), which is
 * why handlers must be idempotent.
 */
export class MemoryBus implements EventBus {
  readonly kind = 'memory' as const;
  private readonly groups = new Map<string, Group>();
  private running = false;
  private timers = new Set<NodeJS.Timeout>();
  private idleWaiters: (() => void)[] = [];
  /** The topic each queued event came on (the queues hold envelopes alone), for the lag. */
  private readonly topics = new WeakMap<Envelope, string>();

  constructor(private readonly logger?: Logger) {}

  async publish(events: readonly OutgoingEvent[]): Promise<void> {
    for (const event of events) {
      this.topics.set(event.envelope, event.topic);
      carryTrace(event.envelope, event.trace);
      for (const group of this.groups.values()) {
        if (group.topics.has(event.topic)) group.queue.push(event.envelope);
      }
    }
    if (this.running) for (const name of this.groups.keys()) this.drain(name);
  }

  async subscribe(subscription: Subscription): Promise<void> {
    const group = this.groups.get(subscription.group) ?? {
      topics: new Set(),
      subscriptions: [],
      queue: [],
      draining: false,
    };
    subscription.topics.forEach((t) => group.topics.add(t));
    group.subscriptions.push(subscription);
    this.groups.set(subscription.group, group);
  }

  async start(): Promise<void> {
    this.running = true;
    for (const name of this.groups.keys()) this.drain(name);
  }

  async stop(): Promise<void> {
    this.running = false;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  /** The events queued for each group, per topic: the in-process bus's consumer lag. */
  async lag(): Promise<ConsumerLag[]> {
    const lags: ConsumerLag[] = [];
    for (const [group, { topics, queue }] of this.groups) {
      const pending = new Map<string, number>([...topics].map((topic) => [topic, 0]));
      for (const envelope of queue) {
        const topic = this.topics.get(envelope);
        if (topic !== undefined) pending.set(topic, (pending.get(topic) ?? 0) + 1);
      }
      for (const [topic, lag] of pending) lags.push({ topic, group, lag });
    }
    return lags;
  }

  /** Resolves when every queue is empty (tests and seeding wait on it). */
  async idle(): Promise<void> {
    if (this.isIdle()) return;
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  private isIdle() {
    return [...this.groups.values()].every((g) => g.queue.length === 0 && !g.draining);
  }

  private drain(name: string, attempt = 0): void {
    const group = this.groups.get(name);
    if (!group || group.draining || !this.running) return;
    group.draining = true;
    void (async () => {
      while (this.running && group.queue.length > 0) {
        // What has queued up goes together (a busy consumer catches up in batches).
        const batch = group.queue.slice(0, MAX_BATCH);
        try {
          await deliver(group.subscriptions, batch);
          group.queue.splice(0, batch.length);
          attempt = 0;
        } catch (error) {
          this.logger?.error(
            { err: error, group: name, eventId: batch[0]!.id, events: batch.length },
            'event handler failed; will retry',
          );
          group.draining = false;
          const timer = setTimeout(() => {
            this.timers.delete(timer);
            this.drain(name, attempt + 1);
          }, retryDelay(attempt));
          this.timers.add(timer);
          return;
        }
      }
      group.draining = false;
      if (this.isIdle()) this.idleWaiters.splice(0).forEach((resolve) => resolve());
    })();
  }
}
