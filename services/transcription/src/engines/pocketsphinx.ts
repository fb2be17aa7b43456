import { access } from 'node:fs/promises';
import { JobError } from '../services/job-error';
import { run } from '../audio/run';
import { englishOnly } from './language';
import type { RecognisedWord, Recognition, SpeechEngine } from './types';

export interface PocketSphinxOptions {
  binary: string;
  hmm?: string;
  lm?: string;
  dict?: string;
  chunkSeconds: number;
}

/** `word start end confidence`, as `-time yes` prints each word of each utterance. */
const WORD_LINE = /^(\S+) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?) (-?\d+(?:\.\d+)?(?:e[-+]?\d+)?)$/i;

/**
 * The fourth column is the word's posterior probability; rounding makes it a hair over 1 at times.
 * Anything else (a log score of another build) is not a confidence and is left out.
 */
function confidence(value: number): { confidence?: number } {
  return value >= 0 && value <= 1.01 ? { confidence: Math.round(Math.min(value, 1) * 1000) / 1000 } : {};
}

/** Utterance marks, silence and noise fillers are not words; `read(2)` is a pronunciation variant of `read`. */
export function parsePocketSphinx(stdout: string): RecognisedWord[] {
  const words: RecognisedWord[] = [];
  for (const line of stdout.split('\n')) {
    const match = WORD_LINE.exec(line.trim());
    if (!match) continue;
    const token = match[1]!;
    if (token.startsWith('<') || token.startsWith('[') || token.startsWith('++')) continue;
    const text = token.replace(/\(\d+\)$/, '');
    if (!text) continue;
    words.push({ text, start: Number(match[2]), end: Number(match[3]), ...confidence(Number(match[4])) });
  }
  return words;
}

/**
 * The offline engine: Debian's `pocketsphinx_continuous` (PocketSphinx 5 prealpha) with the
 * `pocketsphinx-en-us` model. English only; modest accuracy; word timings from `-time yes`.
 */
export class PocketSphinxEngine implements SpeechEngine {
  readonly name = 'pocketsphinx';
  constructor(private readonly options: PocketSphinxOptions) {}

  maxChunkSeconds(): number {
    return this.options.chunkSeconds;
  }

  private modelArgs(): string[] {
    const { hmm, lm, dict } = this.options;
    return [...(hmm ? ['-hmm', hmm] : []), ...(lm ? ['-lm', lm] : []), ...(dict ? ['-dict', dict] : [])];
  }

  async check(signal?: AbortSignal): Promise<void> {
    const missing = `PocketSphinx is not installed on this server (${this.options.binary} not found)`;
    // Without arguments the program prints its configuration and exits: enough to know it runs.
    await run(this.options.binary, ['-logfn', '/dev/null'], missing, { signal });
    for (const [what, path] of [
      ['acoustic model', this.options.hmm],
      ['language model', this.options.lm],
      ['dictionary', this.options.dict],
    ] as const) {
      if (
        path &&
        !(await access(path).then(
          () => true,
          () => false,
        ))
      )
        throw new JobError(`The PocketSphinx ${what} was not found at ${path}`, false);
    }
  }

  recognitionLanguage(requested: string): string {
    return englishOnly('PocketSphinx', requested);
  }

  async transcribe(wavPath: string, signal?: AbortSignal): Promise<Recognition> {
    const errors: string[] = [];
    const result = await run(
      this.options.binary,
      ['-infile', wavPath, '-time', 'yes', ...this.modelArgs()],
      `PocketSphinx is not installed on this server (${this.options.binary} not found)`,
      {
        signal,
        stderrLimit: 0,
        onStderrLine: (line) => {
          if (/^(ERROR|FATAL)/.test(line) && errors.length < 5)
            errors.push(line.replace(/^(ERROR|FATAL): "[^"]*", line \d+: /, ''));
        },
      },
    );
    if (result.code !== 0) {
      const detail = errors.join('; ').slice(0, 300) || `exit code ${result.code}`;
      const model = /model|mdef|dictionary|\.lm|dict/i.test(detail);
      throw new JobError(
        model ? `PocketSphinx could not load its model: ${detail}` : `PocketSphinx failed: ${detail}`,
        false,
      );
    }
    return { words: parsePocketSphinx(result.stdout), language: 'en' };
  }
}
