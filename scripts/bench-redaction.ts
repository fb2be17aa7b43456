/**
 * `npm run bench:redaction`: redaction time per hour of transcript (goal under 1 s), and
 * audio redaction time per hour of audio.
 * A generated one-hour call (BENCH_WORDS, default 12,000 words: two speakers at 200 words a
 * minute, more than people say), whose vocabulary has number words; one segment in ten has a
 * card number, a CVV, an e-mail address or a phone number written into it, so every detector has
 * work. Every detector over every word, BENCH_RUNS times (default 9) after 2 warm-up runs:
 * median and slowest, in ms, with the machine's cores and load.
 * Edit: the redaction a transcript edit adds with the company's redaction on (goal under 5 ms):
 * redactChange on a segment-text edit that types a card number glued to a word, over a segment of
 * the call (about 20 words) and over the longest text an edit takes (SEGMENT_TEXT_MAX characters),
 * BENCH_EDITS times each (default 500): median and slowest, in ms. The policy lookup beside it is
 * one primary-key read in the edit's transaction, not measured here.
 * Audio: a generated call (BENCH_AUDIO_SECONDS, default 3600, of 8 kHz stereo noise, as telephony
 * records it) in local storage, silenced over the spans found above by silenceStoredAudio (ffmpeg
 * read, filter and write back, then the peaks drawn again), once; BENCH_AUDIO_SECONDS=0 skips it.
 */
import { execFileSync } from 'node:child_process';
import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalDiskStorage } from '@earshot/kit';
import { performance } from 'node:perf_hooks';
import { SEGMENT_TEXT_MAX } from '@earshot/contracts';
import { redactSegments } from '../services/transcription/src/redaction';
import { editSegmentText } from '../services/transcription/src/services/edits/ops';
import { redactChange } from '../services/transcription/src/services/edits/redaction';
import { idSource } from '../services/transcription/src/services/edits/retime';
import { silenceStoredAudio } from '../services/transcription/src/redaction/audio';
import { longTranscript } from '../services/transcription/test/long-transcript';

const WORDS = Number(process.env.BENCH_WORDS ?? 12_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const AUDIO_SECONDS = Number(process.env.BENCH_AUDIO_SECONDS ?? 3600);
const EDITS = Number(process.env.BENCH_EDITS ?? 500);

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
  return {
    ...segment,
    words: segment.words.map((word, i) => (i < texts.length ? { ...word, text: texts[i]! } : word)),
  };
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
console.log(
  `redaction of one hour of transcript (${words} words, ${segments.length} segments, ${spans} spans hidden): median ${times[Math.floor(times.length / 2)]!.toFixed(1)} ms, slowest ${times[times.length - 1]!.toFixed(1)} ms (${RUNS} runs; ${availableParallelism()} cores, load ${loadavg()[0]!.toFixed(2)})`,
);

/** Median and slowest of `runs` timings of `work`, after 20 warm-up runs. */
function timed(runs: number, work: () => void): { median: number; slowest: number } {
  const spent: number[] = [];
  for (let run = 0; run < runs + 20; run++) {
    const started = performance.now();
    work();
    if (run >= 20) spent.push(performance.now() - started);
  }
  spent.sort((a, b) => a - b);
  return { median: spent[Math.floor(spent.length / 2)]!, slowest: spent[spent.length - 1]! };
}

const state = { speakers: transcript.metadata.speakers, segments };
const target = segments[1]!;
const typed = `${target.text} card:4111 1111 1111 1111, thanks`;
const filler = 'and then we checked the billing account once more ';
const longest = `${filler.repeat(Math.floor((SEGMENT_TEXT_MAX - 60) / filler.length))}card:4111 1111 1111 1111, thanks`;
for (const [name, text] of [
  [`a segment of the call (${typed.split(' ').length} words)`, typed],
  [`the longest segment text (${longest.length} characters, ${longest.split(' ').length} words)`, longest],
] as const) {
  const change = editSegmentText(state, target._id, text, idSource('ebench'))!;
  const hidden = redactChange(change).redacted;
  const { median, slowest } = timed(EDITS, () => redactChange(change));
  console.log(
    `redaction added to a segment edit, ${name}, ${hidden} span hidden: median ${median.toFixed(3)} ms, slowest ${slowest.toFixed(2)} ms (${EDITS} runs; ${availableParallelism()} cores, load ${loadavg()[0]!.toFixed(2)})`,
  );
}

if (AUDIO_SECONDS > 0) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-redaction-'));
  try {
    const wav = join(dir, 'call.wav');
    execFileSync('sox', [
      '-n',
      '-r',
      '8000',
      '-c',
      '2',
      '-b',
      '16',
      wav,
      'synth',
      String(AUDIO_SECONDS),
      'pinknoise',
      'vol',
      '0.3',
    ]);
    const storage = new LocalDiskStorage(join(dir, 'objects'));
    await storage.put('bench/call.wav', createReadStream(wav), { contentType: 'audio/wav' });
    rmSync(wav);
    const spans = redactSegments(segments).spans.map((span) => ({
      ...span,
      start: (span.start / 3600) * AUDIO_SECONDS,
      end: (span.end / 3600) * AUDIO_SECONDS,
    }));
    const started = performance.now();
    const { size } = await silenceStoredAudio(
      { storage, ffmpeg: { ffmpeg: 'ffmpeg', ffprobe: 'ffprobe' } },
      'bench/call.wav',
      'audio/wav',
      spans,
      join(dir, 'work'),
    );
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `audio redaction of ${AUDIO_SECONDS} s of 8 kHz stereo WAV (${(size / 1e6).toFixed(0)} MB, ${spans.length} spans): ${seconds.toFixed(1)} s, ${(seconds / (AUDIO_SECONDS / 3600)).toFixed(1)} s per hour of audio (${availableParallelism()} cores, load ${loadavg()[0]!.toFixed(2)})`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
