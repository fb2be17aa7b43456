import type { TranscriptDto } from '@earshot/contracts';
// The kit's CSV module alone: this renders in the export thread, which loads none of the server.
import { csvLine } from '@earshot/kit/csv';
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
