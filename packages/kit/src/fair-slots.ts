/**
 * Runs at most `size` tasks at once, at most `perKey` of them for one key (a company), in memory:
 * the in-process counterpart of the queues' fair claim (decisions, 0021). A free slot goes to the
 * key with the fewest tasks running, then to the one served longest ago (round robin); each key's
 * own tasks keep their order. A company that queued twenty tasks delays another's single one by at
 * most one task per slot.
 */
export class FairSlots {
  private running = 0;
  private readonly runningOf = new Map<string, number>();
  private readonly waitingOf = new Map<string, (() => void)[]>();
  /** When each key was last given a slot (a counter, not a time). */
  private readonly servedAt = new Map<string, number>();
  private turn = 0;

  constructor(
    private readonly size: number,
    private readonly perKey: number,
  ) {}

  /** Tasks waiting for a slot, every key together. */
  get waiting(): number {
    let n = 0;
    for (const queue of this.waitingOf.values()) n += queue.length;
    return n;
  }

  get active(): number {
    return this.running;
  }

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    await new Promise<void>((resolve) => {
      const queue = this.waitingOf.get(key);
      if (queue) queue.push(resolve);
      else this.waitingOf.set(key, [resolve]);
      this.dispatch();
    });
    try {
      return await task();
    } finally {
      this.running--;
      const left = (this.runningOf.get(key) ?? 1) - 1;
      if (left > 0) this.runningOf.set(key, left);
      else this.runningOf.delete(key);
      // A key with nothing left is forgotten: the map holds the companies at work, not every one seen.
      if (left <= 0 && !this.waitingOf.has(key)) this.servedAt.delete(key);
      this.dispatch();
    }
  }

  private dispatch(): void {
    while (this.running < this.size) {
      let next: string | null = null;
      for (const key of this.waitingOf.keys()) {
        if ((this.runningOf.get(key) ?? 0) >= this.perKey) continue;
        if (next === null || this.before(key, next)) next = key;
      }
      if (next === null) return;
      const queue = this.waitingOf.get(next)!;
      const start = queue.shift()!;
      if (!queue.length) this.waitingOf.delete(next);
      this.running++;
      this.runningOf.set(next, (this.runningOf.get(next) ?? 0) + 1);
      this.servedAt.set(next, this.turn++);
      start();
    }
  }

  /** Whether `a` goes before `b`: fewer running, then served longer ago (never: first). */
  private before(a: string, b: string): boolean {
    const running = (this.runningOf.get(a) ?? 0) - (this.runningOf.get(b) ?? 0);
    if (running !== 0) return running < 0;
    return (this.servedAt.get(a) ?? -1) < (this.servedAt.get(b) ?? -1);
  }
}
