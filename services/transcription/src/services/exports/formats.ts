import type { ExportFormat, TranscriptDto } from '@earshot/contracts';
import { toDocx } from './document';
import { toSrt, toVtt } from './subtitles';
import { toCsv } from './table';
import { toText } from './text';

export interface Format {
  contentType: string;
  /** Already compressed (DOCX is a ZIP): stored as it is inside a ZIP. */
  compressed: boolean;
  render(t: TranscriptDto): string | Promise<Buffer>;
}

export const FORMATS: Record<ExportFormat, Format> = {
  txt: { contentType: 'text/plain; charset=utf-8', compressed: false, render: toText },
  srt: { contentType: 'application/x-subrip; charset=utf-8', compressed: false, render: toSrt },
  vtt: { contentType: 'text/vtt; charset=utf-8', compressed: false, render: toVtt },
  docx: {
    contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    compressed: true,
    render: toDocx,
  },
  // The API's own shape, exactly what GET /transcripts/file/{fileId} answers.
  json: { contentType: 'application/json; charset=utf-8', compressed: false, render: (t) => JSON.stringify(t) },
  csv: { contentType: 'text/csv; charset=utf-8', compressed: false, render: toCsv },
};

/** One transcript in one format, as bytes. */
export async function render(t: TranscriptDto, format: ExportFormat): Promise<Buffer> {
  const out = await FORMATS[format].render(t);
  return typeof out === 'string' ? Buffer.from(out, 'utf8') : out;
}
