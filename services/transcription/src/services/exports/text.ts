import type { TranscriptDto } from '@earshot/contracts';
import { clock, clean, dateLine, entries } from './shared';

/** Plain text: the title, the date, then `Name (m:ss): text` per segment with a blank line between. */
export function toText(t: TranscriptDto): string {
  const turns = entries(t).map((e) => `${e.speaker} (${clock(e.start)}): ${e.text}`);
  return [clean(t.file.originalName), dateLine(t), '', turns.join('\n\n'), ''].join('\n');
}
