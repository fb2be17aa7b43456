import type { Logger } from 'pino';
import type { Envelope } from '@earshot/contracts';
import { retryDelay, type EventBus, type OutgoingEvent, type Subscription } from './types';

interface Group {
  topics: Set<string>;
  handlers: Subscription['handle'][];
  queue: Envelope[];
  draining: boolean;
}

/**
 * In-process bus for the all-in-one mode. Each consumer group has its own ordered queue, so a slow
 * or failing consumer delays only itself; a failing handler is retried with back-off (at least
 * once, like Kafka), which is why handlers must be idempotent.
 */
export class MemoryBus implements EventBus {
  readonly kind = 'memory' as const;
  private readonly groups = new Map<string, Group>();
  private running = false;
  private timers = new Set<NodeJS.Timeout>();
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly logger?: Logger) {}

  async publish(events: readonly OutgoingEvent[]): Promise<void> {
    for (const event of events) {
      for (const group of this.groups.values()) {
        if (group.topics.has(event.topic)) group.queue.push(event.envelope);
      }
    }
    if (this.running) for (const name of this.groups.keys()) this.drain(name);
  }

  async subscribe(subscription: Subscription): Promise<void> {
    const group = this.groups.get(subscription.group) ?? { topics: new Set(), handlers: [], queue: [], draining: false };
    subscription.topics.forEach((t) => group.topics.add(t));
    group.handlers.push(subscription.handle);
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
        const envelope = group.queue[0]!;
        try {
          for (const handle of group.handlers) await handle(envelope);
          group.queue.shift();
          attempt = 0;
        } catch (error) {
          this.logger?.error({ err: error, group: name, eventId: envelope.id, type: envelope.type }, 'event handler failed; will retry');
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
