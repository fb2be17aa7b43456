import type { TranscriptDto } from '@earshot/contracts';
import { csvLine } from '@earshot/kit';
import { entries } from './shared';

/**
 * The segments as CSV (RFC 4180, CRLF): `segmentId,speaker,start,end,text`, times in seconds. Text
 * a spreadsheet would run as a formula gets a leading ' (the kit's csvCell).
 */
export function toCsv(t: TranscriptDto): string {
  const lines = [csvLine(['segmentId', 'speaker', 'start', 'end', 'text'])];
  for (const e of entries(t)) lines.push(csvLine([e.segmentId, e.speaker, e.start, e.end, e.text]));
  return lines.join('');
}
