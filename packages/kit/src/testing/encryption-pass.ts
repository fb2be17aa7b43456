import { ENCRYPTION_PASS_POLL_MS } from '../crypto/pass';

/**
 * Starts what `start` starts (a test stack) with every background encryption pass's timer left
 * idle, so the pass runs only when the test runs it (`encryptExisting()`). A test that looks at a
 * company between turning encryption on and its pass must not race the timer: on a busy machine the
 * steps in between outlast its period, and a pass the timer started sealed the data before the test
 * looked and told its progress twice. The pass still runs once at start, as in production.
 */
export async function withoutEncryptionPassTimer<T>(start: () => Promise<T>): Promise<T> {
  const real = globalThis.setInterval;
  globalThis.setInterval = ((tick: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) =>
    real(ms === ENCRYPTION_PASS_POLL_MS ? () => undefined : tick, ms, ...args)) as typeof setInterval;
  try {
    return await start();
  } finally {
    globalThis.setInterval = real;
  }
}
