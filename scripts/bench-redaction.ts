/**
 * `npm run bench:redaction`: redaction time per hour of transcript (issue 25: goal under 1 s).
 * A generated one-hour call (BENCH_WORDS, default 12,000 words: two speakers at 200 words a
 * minute, more than people say), whose vocabulary has number words; one segment in ten has a
 * card number, a CVV, an e-mail address or a phone number written into it, so every detector has
 * work. Every detector over every word, BENCH_RUNS times (default 9) after 2 warm-up runs:
 * median and slowest, in ms, with the machine's cores and load.
 */
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { redactSegments } from '../services/transcription/src/redaction';
import { longTranscript } from '../services/transcription/test/long-transcript';

const WORDS = Number(process.env.BENCH_WORDS ?? 12_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 9);

const SAID = [
  'four one one one one one one one one one one one one one one one',
  '4111 1111 1111 1111 cvv one two three',
  'john at example dot com',
  'plus three seven two five one two three four five six seven',
  'EE38 2200 2210 2014 5685',
];

const transcript = longTranscript({ words: WORDS, seconds: 3600 });
const segments = transcript.metadata.speakerSegments.map((segment, index) => {
  if (index % 10 !== 0) return segment;
  const texts = SAID[(index / 10) % SAID.length]!.split(' ');
  return { ...segment, words: segment.words.map((word, i) => (i < texts.length ? { ...word, text: texts[i]! } : word)) };
});

const times: number[] = [];
let spans = 0;
for (let run = 0; run < RUNS + 2; run++) {
  const started = performance.now();
  spans = redactSegments(segments).spans.length;
  if (run >= 2) times.push(performance.now() - started);
}
times.sort((a, b) => a - b);
const words = segments.reduce((n, s) => n + s.words.length, 0);
console.log(`redaction of one hour of transcript (${words} words, ${segments.length} segments, ${spans} spans hidden): median ${times[Math.floor(times.length / 2)]!.toFixed(1)} ms, slowest ${times[times.length - 1]!.toFixed(1)} ms (${RUNS} runs; ${availableParallelism()} cores, load ${loadavg()[0]!.toFixed(2)})`);
