import { KeptThread, type ThreadEnd } from '../src';

// A kept thread's heap limit is fixed by V8 when it starts: a run with another limit than the
// thread's gets a thread started with its own, so a lowered limit holds from the very next run.

/** Only a bound on a thread that never answers, not what is tested. */
const TIMEOUT_MS = 120_000;
const kept = new KeptThread(new URL('./heap-thread.mjs', import.meta.url));
afterAll(() => kept.close());

class Ended extends Error {
  constructor(readonly end: ThreadEnd) {
    super(`thread ended: ${end}`);
  }
}

/** Runs one job on the kept thread: hold `megabytes` of heap under a limit of `memoryMb`. */
async function hold(megabytes: number, memoryMb: number): Promise<{ threadId: number; held: number }> {
  const running = await kept.run<{ threadId: number; held: number }, { threadId: number; held: number }>({
    workerData: { megabytes },
    limits: { timeoutMs: TIMEOUT_MS, memoryMb },
    onMessage: (message, finish) => finish.resolve(message),
    failure: (end) => new Ended(end),
  });
  return running.result;
}

test('a run with a lower heap limit than the kept thread’s fails at the lower limit, in a new thread', async () => {
  const first = await hold(80, 256);
  expect(first.held).toBe(80);
  // The same limit keeps the thread.
  expect((await hold(80, 256)).threadId).toBe(first.threadId);

  // 80 MB fit under 256 but not under 32: the kept thread would have answered.
  await expect(hold(80, 32)).rejects.toMatchObject({ end: 'memory' });

  // A thread with the lower limit serves what fits in it, and is kept for the next run at that limit.
  const small = await hold(4, 32);
  expect(small.threadId).not.toBe(first.threadId);
  expect((await hold(4, 32)).threadId).toBe(small.threadId);
}, 300_000);
