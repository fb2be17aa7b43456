// A kept thread of threads.test.ts: each run's first message asks it to hold `megabytes` of
// JavaScript heap (numbers in arrays, inside the heap V8 limits) at once; it answers with its id.
import { parentPort, threadId } from 'node:worker_threads';

const DOUBLES_PER_MB = (1024 * 1024) / 8;

parentPort.on('message', ({ megabytes }) => {
  const held = Array.from({ length: megabytes }, () => new Array(DOUBLES_PER_MB).fill(0.5));
  parentPort.postMessage({ threadId, held: held.length });
});
