import { SYSTEM_ACTOR } from '@earshot/contracts';
import { perContext, secretBox, type SecretBox, type ServiceContext } from '@earshot/kit';
import type { WebhooksConfig } from '../config';
import * as deliveries from '../repositories/deliveries';
import * as endpoints from '../repositories/endpoints';
import { Sender } from './sender';
import { signedHeaders } from './signing';

/**
 * The waits before each retry (after the first attempt fails: 5 s, then 5 min, …), as Standard
 * Webhooks suggests; WEBHOOK_RETRY_SCALE multiplies them. After the last retry fails the delivery
 * is failed: 8 attempts over about 28 hours.
 */
export const RETRY_SCHEDULE_MS = [5, 300, 1800, 7200, 18_000, 36_000, 36_000].map((s) => s * 1000);
export const MAX_ATTEMPTS = RETRY_SCHEDULE_MS.length + 1;
/** An endpoint that failed every delivery for this long is turned off. */
export const DISABLE_AFTER_MS = 5 * 24 * 3600 * 1000;
export const DISABLED_REASON = 'Every delivery failed for 5 days';
/** A claimed delivery is someone's for this long: past it (its worker died), it is claimed again. */
const LEASE_MS = 60_000;
/** Deliveries removed per transaction by the retention purge. */
const PURGE_BATCH = 1000;

/** When the next attempt is due after `attempts` failed ones of the round, or null when none is left. */
export function nextAttempt(attempts: number, scale: number, now = Date.now(), random = Math.random): Date | null {
  const wait = RETRY_SCHEDULE_MS[attempts - 1];
  if (wait === undefined) return null;
  // ±10 % jitter: endpoints that failed together are not all retried in the same instant.
  return new Date(now + wait * scale * (0.9 + random() * 0.2));
}

/**
 * Sends due deliveries. Woken when an event or a person queues one, and on a timer for retries;
 * several processes may run it at once (claims skip each other's rows). One round claims at most
 * WEBHOOK_CONCURRENCY deliveries, one per endpoint, and sends them together.
 */
export class DeliveryWorker {
  readonly box: SecretBox;
  private readonly sender: Sender;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(private readonly ctx: ServiceContext<WebhooksConfig>) {
    this.box = secretBox(ctx.config, 'webhooks');
    this.sender = new Sender({ allowPrivate: ctx.config.WEBHOOK_ALLOW_PRIVATE_URLS });
  }

  /** Runs a pass now (or right after the one running), without waiting for it. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.loop().finally(() => {
      this.running = null;
      if (this.again) this.wake();
    });
  }

  /**
   * Removes finished deliveries older than WEBHOOK_DELIVERY_RETENTION_DAYS, in batches so one
   * purge never holds a long lock on the log. Answers how many went.
   */
  async purge(now = new Date()): Promise<number> {
    const before = new Date(now.getTime() - this.ctx.config.WEBHOOK_DELIVERY_RETENTION_DAYS * 86_400_000);
    let total = 0;
    try {
      for (;;) {
        const removed = await this.ctx.transact((tx) => deliveries.deleteFinishedBefore(tx, before, PURGE_BATCH));
        total += removed;
        if (removed < PURGE_BATCH || this.stopped) return total;
      }
    } catch (error) {
      this.ctx.logger.error({ err: error }, 'webhook delivery purge failed');
      return total;
    }
  }

  /** Waits for the pass running, if any (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.idle();
    await this.sender.close();
  }

  private async loop(): Promise<void> {
    this.again = false;
    try {
      for (;;) {
        const claimed = await this.ctx.transact((tx) =>
          deliveries.claimDue(tx, this.ctx.config.WEBHOOK_CONCURRENCY, LEASE_MS),
        );
        if (claimed.length === 0 || this.stopped) return;
        await Promise.all(claimed.map((delivery) => this.attempt(delivery)));
      }
    } catch (error) {
      this.ctx.logger.error({ err: error }, 'webhook deliveries failed');
    }
  }

  /**
   * One signed POST. A secret that cannot be opened (SECRETS_KEY changed) is a failed attempt like
   * any other, recorded with its reason, rather than a delivery stuck under its lease.
   */
  private async send(delivery: deliveries.ClaimedDelivery): Promise<deliveries.AttemptOutcome & { ok: boolean }> {
    let secrets: string[];
    try {
      secrets = this.secretsOf(delivery);
    } catch {
      return {
        ok: false,
        statusCode: null,
        error: 'the signing secret cannot be opened',
        durationMs: 0,
        excerpt: null,
      };
    }
    return this.sender.post(delivery.url, signedHeaders(secrets, delivery.id, delivery.body), delivery.body);
  }

  private secretsOf(delivery: deliveries.ClaimedDelivery): string[] {
    const secrets = [this.box.open(delivery.secret)];
    if (delivery.previousSecret && delivery.previousUntil && delivery.previousUntil.getTime() > Date.now())
      secrets.push(this.box.open(delivery.previousSecret));
    return secrets;
  }

  private async attempt(delivery: deliveries.ClaimedDelivery): Promise<void> {
    const outcome = await this.send(delivery);
    const next = outcome.ok ? null : nextAttempt(delivery.roundAttempts, this.ctx.config.WEBHOOK_RETRY_SCALE);
    await this.ctx.transact(async (tx, emit) => {
      await deliveries.recordAttempt(tx, delivery.id, outcome, outcome.ok, next);
      if (outcome.ok) return endpoints.markSucceeded(tx, delivery.endpointId);
      const endpoint = await endpoints.markFailed(tx, delivery.endpointId);
      if (!endpoint?.failingSince) return;
      const since = new Date(Date.now() - DISABLE_AFTER_MS);
      if (await endpoints.disableIfFailingSince(tx, endpoint.id, since, DISABLED_REASON)) {
        emit({
          type: 'webhook_endpoint.disabled',
          companyId: endpoint.companyId,
          actor: SYSTEM_ACTOR,
          data: {
            id: endpoint.id,
            url: endpoint.url,
            failingSince: endpoint.failingSince.toISOString(),
            lastError: outcome.error ?? (outcome.statusCode ? `HTTP ${outcome.statusCode}` : null),
          },
        });
      }
    });
  }
}

export const workerOf = perContext((ctx: ServiceContext<WebhooksConfig>) => new DeliveryWorker(ctx));
