import createContentDisposition from 'content-disposition';
import { conflict, notFound, type Identity, type ServiceContext } from '@earshot/kit';
import { exportNotReadyMessage, type ExportFormat, type TranscriptDto } from '@earshot/contracts';
import type { TranscriptionConfig } from '../../config';
import * as jobsRepo from '../../repositories/jobs';
import * as transcriptsRepo from '../../repositories/transcripts';
import { scopeOf } from '../scope';
import { toDto } from '../transcripts';
import { zipFiles } from './bundle';
import { FORMATS, render } from './formats';
import { baseName } from './shared';

/** A download: its bytes, their type and the Content-Disposition naming the file. */
export interface ExportFile {
  body: Buffer;
  contentType: string;
  disposition: string;
}

// Characters a file system refuses in a name (Windows' list, which covers the others').
// eslint-disable-next-line no-control-regex
const UNSAFE_IN_NAME = /[\\/:*?"<>|\u0000-\u001f]/g;

/** `<original name without extension>.<format>`, safe as a file name on any system. */
const fileNameOf = (t: TranscriptDto, format: ExportFormat) => `${baseName(t.file.originalName).replace(UNSAFE_IN_NAME, '_')}.${format}`;

/**
 * RFC 6266 attachment: an ASCII `filename` (anything else as `_`: browsers read that parameter in
 * differing charsets) and, when that lost something, the exact name in `filename*` (RFC 5987 UTF-8).
 */
const attachment = (name: string) => createContentDisposition(name, { type: 'attachment', fallback: name.replace(/[^\x20-\x7e]/g, '_') });

/**
 * Downloads of transcripts in the formats of FORMATS. What may be exported is what may be read:
 * the caller's company's transcripts (a HOST_ADMIN's: any), in a b2c company only the caller's own,
 * found through the same repository scope as GET /transcripts/file/{fileId}. Each export reads the
 * stored transcript as it is now, so the latest edits and speaker names are in it.
 */
export class ExportService {
  constructor(private readonly ctx: ServiceContext<TranscriptionConfig>) {}

  /** The transcripts, in order; another company's (or missing) is a 404 before a not-ready one is a 409. */
  private async completed(identity: Identity, fileIds: readonly string[]): Promise<TranscriptDto[]> {
    const scope = await scopeOf(this.ctx.db, identity);
    const found: TranscriptDto[] = [];
    for (const fileId of fileIds) {
      const row = await transcriptsRepo.findByFile(this.ctx.db, fileId, scope);
      if (!row) throw notFound('Transcript');
      found.push(toDto(row, await jobsRepo.findJob(this.ctx.db, fileId)));
    }
    const waiting = found.find((t) => t.status !== 'completed');
    if (waiting) throw conflict(exportNotReadyMessage(waiting.file.originalName, waiting.status), { fileId: waiting.fileId, status: waiting.status });
    return found;
  }

  async one(identity: Identity, input: { fileId: string; format: ExportFormat }): Promise<ExportFile> {
    const [transcript] = await this.completed(identity, [input.fileId]);
    return {
      body: await render(transcript!, input.format),
      contentType: FORMATS[input.format].contentType,
      disposition: attachment(fileNameOf(transcript!, input.format)),
    };
  }

  /** A ZIP with one file per transcript (a file id given twice is exported once). */
  async bundle(identity: Identity, input: { fileIds: string[]; format: ExportFormat }): Promise<ExportFile> {
    const transcripts = await this.completed(identity, [...new Set(input.fileIds.map((id) => id.toLowerCase()))]);
    const files = [];
    for (const t of transcripts) files.push({ name: fileNameOf(t, input.format), data: await render(t, input.format), compressed: FORMATS[input.format].compressed });
    const now = new Date();
    return {
      body: Buffer.from(zipFiles(files, now)),
      contentType: 'application/zip',
      disposition: attachment(`transcripts-${now.toISOString().slice(0, 10)}-${input.format}.zip`),
    };
  }
}
