import { Transform, type TransformCallback } from 'node:stream';
import { SNIFF_BYTES, sniffAudio, type AudioType } from './audio-sniffer';

export interface UploadLimits {
  /** MAX_UPLOAD_BYTES: more is a 413 "too large". */
  maxBytes: number;
  /** What is left of the company's storage quota (Infinity without one): more is a 413 "quota". */
  quotaBytes: number;
}

export type GuardFailure = 'unsupported' | 'too_large' | 'quota';

export class UploadRejected extends Error {
  constructor(public readonly reason: GuardFailure) {
    super(`upload rejected: ${reason}`);
    this.name = 'UploadRejected';
  }
}

/**
 * Sits between the multipart file stream and storage. It holds back the first chunk (and more only
 * while it has fewer than SNIFF_BYTES) until it can tell the format, so storage is only opened for
 * audio; it counts every byte and fails the stream the moment the count passes the upload limit or
 * the company's remaining quota. Memory use is one chunk plus the sniffed head, whatever the file size.
 */
export class UploadGuard extends Transform {
  bytes = 0;
  type: AudioType | null = null;
  /** The first bytes the format was told from (what a header says about the length is in them). */
  head: Buffer = Buffer.alloc(0);
  /** Resolves with the format once known; rejects when the upload fails before that. */
  readonly detected: Promise<AudioType>;
  private held: Buffer[] = [];
  private headLength = 0;
  private resolveType!: (type: AudioType) => void;

  constructor(private readonly limits: UploadLimits) {
    super();
    this.detected = new Promise<AudioType>((resolve, reject) => {
      this.resolveType = resolve;
      this.once('error', reject);
    });
    // Observed by whoever awaits it; never an unhandled rejection.
    this.detected.catch(() => undefined);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    const over = this.overLimit();
    if (over) return callback(over);
    if (this.type) return callback(null, chunk);
    this.held.push(chunk);
    this.headLength += chunk.length;
    if (this.headLength < SNIFF_BYTES) return callback();
    this.decide(callback);
  }

  override _flush(callback: TransformCallback): void {
    if (this.type) return callback();
    this.decide(callback);
  }

  private decide(callback: TransformCallback): void {
    const head = Buffer.concat(this.held, this.headLength);
    this.held = [];
    this.head = head;
    sniffAudio(head).then(
      (type) => {
        if (!type) return callback(new UploadRejected('unsupported'));
        this.type = type;
        this.resolveType(type);
        callback(null, head);
      },
      (error: unknown) => callback(error as Error),
    );
  }

  private overLimit(): UploadRejected | null {
    if (this.bytes > this.limits.maxBytes) return new UploadRejected('too_large');
    if (this.bytes > this.limits.quotaBytes) return new UploadRejected('quota');
    return null;
  }
}
