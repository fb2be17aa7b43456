/** setInterval that never keeps the process alive on its own (a stopped server exits). */
export function unrefInterval(tick: () => void, everyMs: number): NodeJS.Timeout {
  const timer = setInterval(tick, everyMs);
  timer.unref();
  return timer;
}

/**
 * The timers a service starts with a context (its start hook) and clears when that context stops.
 * Kept per context, so the stacks of one process (the tests run several) never clear each other's.
 */
export class ContextTimers {
  private readonly timers = new WeakMap<object, NodeJS.Timeout[]>();

  /** Keeps a timer started elsewhere (startDailyJob, an encryption pass) until stop(ctx). */
  add(ctx: object, timer: NodeJS.Timeout): void {
    this.timers.set(ctx, [...(this.timers.get(ctx) ?? []), timer]);
  }

  /** Calls `tick` every `everyMs` (the first time after `everyMs`) until stop(ctx). */
  every(ctx: object, everyMs: number, tick: () => void): void {
    this.add(ctx, unrefInterval(tick, everyMs));
  }

  stop(ctx: object): void {
    for (const timer of this.timers.get(ctx) ?? []) clearInterval(timer);
    this.timers.delete(ctx);
  }
}
