import createContentDisposition from 'content-disposition';
import { conflict, notFound, type Identity, type ServiceContext } from '@earshot/kit';
import { exportNotReadyMessage, type ExportFormat, type TranscriptDto } from '@earshot/contracts';
import type { TranscriptionConfig } from '../../config';
import type { Scope } from '../../repositories/transcripts';
import { scopeOf } from '../scope';
import { readSegmentPieces } from '../../repositories/transcripts';
import { findTranscriptHeader, type TranscriptHeader } from '../transcripts';
import { wordsOf } from '../words-encryption';
import { FORMATS } from './formats';
import type { ExportRenderer, RenderSink } from './renderer';
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

const notReady = (t: TranscriptDto) =>
  conflict(exportNotReadyMessage(t.file.originalName, t.status), { fileId: t.fileId, status: t.status });

const changed = (t: TranscriptDto) =>
  conflict(`${t.file.originalName} changed while it was exported: export it again`, { fileId: t.fileId });

/** `<original name without extension>.<format>`, safe as a file name on any system. */
const fileNameOf = (t: TranscriptDto, format: ExportFormat) =>
  `${baseName(t.file.originalName).replace(UNSAFE_IN_NAME, '_')}.${format}`;

/**
 * RFC 6266 attachment: an ASCII `filename` (anything else as `_`: browsers read that parameter in
 * differing charsets) and, when that lost something, the exact name in `filename*` (RFC 5987 UTF-8).
 */
const attachment = (name: string) =>
  createContentDisposition(name, { type: 'attachment', fallback: name.replace(/[^\x20-\x7e]/g, '_') });

/**
 * Downloads of transcripts in the formats of FORMATS. What may be exported is what may be read:
 * the caller's company's transcripts (a HOST_ADMIN's: any), in a b2c company only the caller's own,
 * found through the same repository scope as GET /transcripts/file/{fileId}. Each export reads the
 * stored transcript as it is now, so the latest edits and speaker names are in it. The files are
 * rendered off the event loop, in threads taken in turn by company (renderer.ts).
 */
export class ExportService {
  constructor(
    private readonly ctx: ServiceContext<TranscriptionConfig>,
    private readonly renderer: ExportRenderer,
  ) {}

  /** A transcript the caller may read (else 404), as the API shows it, without its segments. */
  private async find(fileId: string, scope: Scope): Promise<TranscriptHeader> {
    const found = await findTranscriptHeader(this.ctx.db, wordsOf(this.ctx), fileId, scope);
    if (!found) throw notFound('Transcript');
    return found;
  }

  /**
   * Reads a transcript once its export has a thread (it may have changed while the export waited)
   * and, when completed and `send`, hands it to the thread with its segments in pieces. Its
   * transcript, to see whether it was ready; a 409 when it was written while its pieces were read.
   */
  private async feed(sink: RenderSink, fileId: string, scope: Scope, format: ExportFormat, send: boolean) {
    const header = await this.find(fileId, scope);
    const t = header.transcript;
    if (t.status !== 'completed' || !send) return t;
    sink.begin(header, fileNameOf(t, format));
    const read = { fileId: t.fileId, sealed: header.sealed !== null, rowVersion: header.rowVersion };
    if (!(await readSegmentPieces(this.ctx.db, read, sink.segments, sink.stopped))) throw changed(t);
    sink.read();
    return t;
  }

  async one(identity: Identity, input: { fileId: string; format: ExportFormat }): Promise<ExportFile> {
    const scope = await scopeOf(this.ctx.db, identity);
    // Checked before the export waits for a thread: a 404 or a 409 answers at once.
    const { transcript } = await this.find(input.fileId, scope);
    if (transcript.status !== 'completed') throw notReady(transcript);
    const request = { companyId: transcript.companyId, format: input.format, zipped: null };
    const body = await this.renderer.render(request, async (sink) => {
      const t = await this.feed(sink, input.fileId, scope, input.format, true);
      if (t.status !== 'completed') throw notReady(t);
    });
    return {
      body,
      contentType: FORMATS[input.format].contentType,
      disposition: attachment(fileNameOf(transcript, input.format)),
    };
  }

  /**
   * A ZIP with one file per transcript (a file id given twice is exported once). Any one that is
   * not the caller's is a 404, else any one not ready a 409. Each goes to the rendering thread as it
   * is read, so only the files stay in memory, not up to 100 whole transcripts.
   */
  async bundle(identity: Identity, input: { fileIds: string[]; format: ExportFormat }): Promise<ExportFile> {
    const scope = await scopeOf(this.ctx.db, identity);
    const now = new Date();
    const request = { companyId: identity.companyId, format: input.format, zipped: now };
    const body = await this.renderer.render(request, async (sink) => {
      let waiting: TranscriptDto | null = null;
      for (const fileId of new Set(input.fileIds.map((id) => id.toLowerCase()))) {
        const t = await this.feed(sink, fileId, scope, input.format, !waiting);
        if (t.status !== 'completed') waiting ??= t;
      }
      if (waiting) throw notReady(waiting);
    });
    return {
      body,
      contentType: 'application/zip',
      disposition: attachment(`transcripts-${now.toISOString().slice(0, 10)}-${input.format}.zip`),
    };
  }
}
