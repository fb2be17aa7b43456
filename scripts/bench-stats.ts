/** Median, 95th percentile, min and max of timings (the benchmarks' figures). */
export function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  return { median: at(0.5), p95: at(0.95), min: sorted[0]!, max: sorted.at(-1)! };
}

export const ms = (n: number) => `${n.toFixed(2)} ms`;

/** Numbers in [0, 1) from a seed: benchmarks generate the same text on every run. */
export function* prng(seed: number) {
  let x = seed;
  for (;;) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    yield x / 2 ** 31;
  }
}
