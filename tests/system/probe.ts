/** What a probe saw: how many answers, the slowest (ms), and every status that was not 200. */
export interface ProbeResult {
  count: number;
  slowest: number;
  failures: number[];
}

/**
 * Sends the requests one after the other, round and round, each as soon as the previous answered,
 * until stopped. While heavy work runs elsewhere in the process, the slowest answer bounds how long
 * that work held the event loop: a request that waited for it would take as long as the work.
 */
export function probe(requests: readonly (() => Promise<Response>)[]): { stop(): Promise<ProbeResult> } {
  let running = true;
  const seen: ProbeResult = { count: 0, slowest: 0, failures: [] };
  const loop = (async () => {
    while (running) {
      for (const request of requests) {
        const started = performance.now();
        const res = await request();
        await res.arrayBuffer();
        seen.slowest = Math.max(seen.slowest, performance.now() - started);
        seen.count++;
        if (res.status !== 200) seen.failures.push(res.status);
      }
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return seen;
    },
  };
}
