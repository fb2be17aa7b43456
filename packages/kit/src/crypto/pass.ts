import type { Logger } from 'pino';
import { unrefInterval } from '../timers';

/** How often a background encryption pass looks for companies that turned encryption on. */
export const ENCRYPTION_PASS_POLL_MS = 15_000;

/**
 * Runs a service's background encryption pass (what a company stored before it turned encryption
 * on) at start and on a timer, one run at a time in this process; a failure is logged and the
 * next tick tries again. The pass itself must be idempotent: replicas run it side by side.
 * Returns the timer, for stop().
 */
export function startEncryptionPass(logger: Logger, service: string, pass: () => Promise<void>): NodeJS.Timeout {
  let running = false;
  const tick = () => {
    if (running) return;
    running = true;
    pass()
      .catch((error: unknown) => logger.error({ err: error, service }, 'encrypting existing data failed'))
      .finally(() => {
        running = false;
      });
  };
  tick();
  return unrefInterval(tick, ENCRYPTION_PASS_POLL_MS);
}

/** A pass tells how far it got at most this often per company, so a long one does not flood the bus. */
export const ENCRYPTION_PROGRESS_EVENT_MS = 5_000;

/**
 * When a pass over one company's objects should tell its progress (company.encryption_progressed,
 * state `running`): the first ask says yes, later ones only once `everyMs` has passed since the
 * last yes. The end (`done`) is told regardless.
 */
export function progressClock(everyMs = ENCRYPTION_PROGRESS_EVENT_MS, now: () => number = Date.now): () => boolean {
  let last = Number.NEGATIVE_INFINITY;
  return () => {
    const at = now();
    if (at - last < everyMs) return false;
    last = at;
    return true;
  };
}
