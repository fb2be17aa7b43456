import { exportTooLargeMessage, type ExportFormat } from '@earshot/contracts';
import { FairSlots, KeptThread, perContext, tooLarge, type ServiceContext, type ThreadEnd } from '@earshot/kit';
import type { TranscriptionConfig } from '../../config';
import type { TranscriptHeader } from '../transcripts';
import type { RenderInput, RenderMessage } from './render-worker';

/** One export to render: its format, and whether its files go in a ZIP (dated `zipped`). */
export interface RenderRequest {
  companyId: string | null;
  format: ExportFormat;
  zipped: Date | null;
}

/**
 * What a feed hands the thread: each transcript without its segments (`begin`, with its file's
 * name), the pieces of their stored text as they are read (`segments`), then that they are all
 * there (`read`: the thread joins, opens when sealed, parses and renders them). `stopped` aborts
 * once the export has ended (its thread over a limit): nothing more need be read.
 */
export interface RenderSink {
  begin(header: TranscriptHeader, name: string): void;
  segments(piece: string): void;
  read(): void;
  stopped: AbortSignal;
}

/** Hands the thread each transcript as it is read. */
export type Feed = (sink: RenderSink) => Promise<void>;

/**
 * Renders exports off the event loop that serves requests, in a pool of EXPORT_WORKERS threads
 * (render-thread.mjs, the kit's KeptThread: started once, not per export). Each export (one file, or
 * a ZIP of up to EXPORT_BULK_MAX) renders within EXPORT_TIMEOUT_MS and EXPORT_MAX_HEAP_MB; one over
 * a limit is a 413 naming it, and its thread is ended (its memory returns) and replaced. Exports
 * waiting for a thread take turns by company (FairSlots: at most EXPORT_COMPANY_CONCURRENCY of one
 * company at once, companies in turn), so one company's twenty big ZIPs do not hold back another's.
 */
export class ExportRenderer {
  private readonly slots: FairSlots;
  private readonly threads: KeptThread[];
  /** The threads no export is using; FairSlots never lets more exports run than there are threads. */
  private readonly idle: KeptThread[];

  constructor(private readonly ctx: ServiceContext<TranscriptionConfig>) {
    this.slots = new FairSlots(ctx.config.EXPORT_WORKERS, ctx.config.EXPORT_COMPANY_CONCURRENCY);
    this.threads = Array.from(
      { length: ctx.config.EXPORT_WORKERS },
      () => new KeptThread(new URL('./render-thread.mjs', import.meta.url)),
    );
    this.idle = [...this.threads];
  }

  /** Exports rendering and waiting for a thread, every company together (the service's metrics). */
  get load(): { rendering: number; waiting: number } {
    return { rendering: this.slots.active, waiting: this.slots.waiting };
  }

  /** Platform-wide reads (a HOST_ADMIN's, no company) take turns as one company of their own. */
  render(request: RenderRequest, feed: Feed): Promise<Buffer> {
    return this.slots.run(request.companyId ?? 'platform', async () => {
      const thread = this.idle.pop()!;
      try {
        return await this.inThread(thread, request, feed);
      } finally {
        this.idle.push(thread);
      }
    });
  }

  /** Ends the threads (the service is stopping): an export still rendering fails. */
  async close(): Promise<void> {
    await Promise.all(this.threads.map((thread) => thread.close()));
  }

  private async inThread(kept: KeptThread, { format, zipped }: RenderRequest, feed: Feed): Promise<Buffer> {
    const { EXPORT_TIMEOUT_MS: timeoutMs, EXPORT_MAX_HEAP_MB: memoryMb } = this.ctx.config;
    const job: RenderInput = { type: 'job', format, zip: zipped ? { mtime: zipped.getTime() } : null };
    // Ends the thread when not every transcript could be read (a 404, a 409).
    const abandon = new AbortController();
    const thread = await kept.run<RenderMessage, Uint8Array>({
      workerData: job,
      limits: { timeoutMs, memoryMb },
      signal: abandon.signal,
      onMessage: (message, finish) => {
        if (message.type === 'done') finish.resolve(message.body);
        else finish.reject(new Error(`export rendering failed: ${message.message}`));
      },
      failure: (end: ThreadEnd, cause?: Error) => {
        if (end !== 'timeout' && end !== 'memory') return new Error(`export rendering ended: ${end}`, { cause });
        this.ctx.logger.warn({ format, limit: end }, 'export stopped at its limit');
        return tooLarge(
          exportTooLargeMessage(
            end === 'timeout' ? { kind: 'time', seconds: timeoutMs / 1000 } : { kind: 'memory', megabytes: memoryMb },
          ),
        );
      },
    });
    // Watched from now: a thread ended at its limit while transcripts are still read is no unhandled rejection.
    const answered = thread.result.then(
      (body) => ({ body }),
      (error: Error) => ({ error }),
    );
    const stopped = new AbortController();
    void answered.then(() => stopped.abort());
    const send = (input: RenderInput) => thread.post(input);
    try {
      await feed({
        begin: ({ transcript, sealed }, name) => send({ type: 'transcript', transcript, sealed, name }),
        segments: (piece) => send({ type: 'segments', piece }),
        read: () => send({ type: 'read' }),
        stopped: stopped.signal,
      });
    } catch (error) {
      abandon.abort();
      await answered;
      throw error;
    }
    send({ type: 'end' });
    const outcome = await answered;
    if ('error' in outcome) throw outcome.error;
    return Buffer.from(outcome.body.buffer, outcome.body.byteOffset, outcome.body.byteLength);
  }
}

/** The one renderer of a service context: its routes share the threads and the turns. */
export const exportRenderer = perContext((ctx: ServiceContext<TranscriptionConfig>) => new ExportRenderer(ctx));
