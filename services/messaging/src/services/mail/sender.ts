import { SYSTEM_ACTOR } from '@earshot/contracts';
import { SpanKind, untraced, withSpan, type SecretBox, type ServiceContext } from '@earshot/kit';
import type { MailMessageRow } from '../../db/schema';
import * as repo from '../../repositories/mail';
import type { MailConfig } from './config';
import type { MailTransport } from './transport';

/** Attempts before a message is given up as failed (the reason is kept and shown). */
export const MAX_ATTEMPTS = 5;
/** Back-off after the n-th failed attempt: 30 s, 2 min, 8 min, 32 min. */
export const retryDelayMs = (attempt: number) => 30_000 * 4 ** (attempt - 1);
/** A message taken by a sender that never finished (it died) is taken again after this. */
const STALE_MS = 10 * 60_000;
const BATCH = 20;

export interface SealedBody {
  html: string;
  text: string;
}

const reasonOf = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').slice(0, 500);

/**
 * Sends the queued mail: wakes when nudged (a message was just queued) and on a timer, takes due
 * messages, sends each outside any transaction (an SMTP conversation must not hold a lock or
 * PGlite's one connection), and records the outcome with its event.
 */
export class MailSender {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = true;

  constructor(
    private readonly ctx: ServiceContext<MailConfig & ServiceContext['config']>,
    private readonly transport: MailTransport,
    private readonly box: SecretBox,
  ) {}

  start(): void {
    this.stopped = false;
    this.nudge();
  }

  nudge(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.running = this.loop().finally(() => {
      this.running = null;
      if (this.stopped) return;
      if (this.again) {
        this.again = false;
        this.nudge();
      } else {
        this.timer = setTimeout(() => untraced(() => this.nudge()), this.ctx.config.MAIL_POLL_MS);
        this.timer.unref();
      }
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
    this.transport.close();
  }

  private async loop(): Promise<void> {
    try {
      while (!this.stopped && (await this.runOnce()) === BATCH);
    } catch (error) {
      this.ctx.logger.error({ err: error }, 'mail sender: a round failed; it runs again on the next tick');
    }
  }

  /** One round: sends what is due at `now`; answers how many messages it took. */
  async runOnce(now = new Date()): Promise<number> {
    const taken = await this.ctx.transact((tx) => repo.claimDue(tx, now, BATCH, STALE_MS));
    for (const message of taken) await this.deliver(message);
    return taken.length;
  }

  private async deliver(message: MailMessageRow): Promise<void> {
    const { ctx } = this;
    let outcome: { ok: true; transport: 'smtp' | 'file'; fileName: string | null } | { ok: false; reason: string };
    try {
      if (!message.bodySealed) throw new Error('The message body is missing');
      const body = JSON.parse(this.box.open(message.bodySealed)) as SealedBody;
      // The span names the message, never its address or content.
      const delivery = await withSpan(
        'mail send',
        {
          kind: SpanKind.CLIENT,
          attributes: {
            'earshot.mail.id': message.id,
            'earshot.mail.type': message.type,
            'earshot.mail.transport': this.transport.kind,
            'earshot.mail.attempt': message.attempts,
          },
        },
        () =>
          this.transport.send({
            id: message.id,
            from: ctx.config.MAIL_FROM,
            to: message.toAddress,
            subject: message.subject,
            ...body,
          }),
      );
      outcome = { ok: true, ...delivery };
    } catch (error) {
      outcome = { ok: false, reason: reasonOf(error) };
    }
    const base = { id: message.id, type: message.type, to: message.toAddress, attempts: message.attempts };
    await ctx.transact(async (tx, emit) => {
      if (outcome.ok) {
        // Once an SMTP server has the message, Earshot keeps no copy of a body that may hold a
        // link; the .eml file is the copy when mail goes to files, and the page reads it there.
        const bodySealed = outcome.transport === 'smtp' ? null : message.bodySealed;
        await repo.markSent(
          tx,
          message.id,
          { transport: outcome.transport, fileName: outcome.fileName, bodySealed },
          new Date(),
        );
        emit({
          type: 'mail.sent',
          companyId: message.companyId,
          actor: SYSTEM_ACTOR,
          data: { ...base, transport: outcome.transport },
        });
      } else if (message.attempts >= MAX_ATTEMPTS) {
        await repo.markFailed(tx, message.id, outcome.reason);
        emit({
          type: 'mail.failed',
          companyId: message.companyId,
          actor: SYSTEM_ACTOR,
          data: { ...base, reason: outcome.reason },
        });
      } else {
        await repo.markRetry(tx, message.id, outcome.reason, new Date(Date.now() + retryDelayMs(message.attempts)));
      }
    });
    if (!outcome.ok)
      ctx.logger.warn({ mailId: message.id, attempts: message.attempts, reason: outcome.reason }, 'mail not sent');
  }
}
