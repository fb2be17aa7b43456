import { JobError } from '../services/job-error';

/** What an English-only engine (PocketSphinx, a `.en` Whisper model) makes of the language asked for: `auto` is English, another one is refused. */
export function englishOnly(engine: string, requested: string): string {
  if (requested === 'auto' || requested === 'en' || requested.startsWith('en-')) return 'en';
  throw new JobError(
    `${engine} recognises English only: download a multilingual Whisper model on AI Configuration, or upload with language en`,
    false,
  );
}
