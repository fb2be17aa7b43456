// Many recordings at once: each file is its own entry with its own progress, cancel and outcome;
// at most `limit` are sent at a time (a folder of 50 calls must not open 50 connections, and the
// first files finish early instead of all finishing last). A failed or cancelled entry keeps its
// file so it can be sent again (retry), with the fields it was chosen with.
import type { UploadedFileDto } from '@earshot/contracts';
import type { UploadHandle } from '../../lib/upload';

export type QueueStatus = 'queued' | 'uploading' | 'done' | 'failed' | 'cancelled';

/** What the batch was chosen with: sent with every file of it (and again on retry). */
export interface BatchFields {
  companyId?: string;
  clientId?: string;
  language?: string;
  speakers?: string;
}

export interface QueueItem {
  id: string;
  file: File;
  fields: BatchFields;
  status: QueueStatus;
  /** 0–1 while uploading. */
  progress: number;
  /** The server's message for a refused file (null: none given, or the network failed). */
  message: string | null;
  /** HTTP status of a refusal (0: the network). */
  httpStatus: number;
  fileId: string | null;
}

export type StartUpload = (item: QueueItem, onProgress: (fraction: number) => void) => UploadHandle<UploadedFileDto>;

export const UPLOAD_CONCURRENCY = 3;

export class UploadQueue {
  private items: readonly QueueItem[] = [];
  private readonly handles = new Map<string, UploadHandle<UploadedFileDto>>();
  private readonly listeners = new Set<() => void>();
  private counter = 0;

  constructor(
    private readonly start: StartUpload,
    /** Called once per file when its upload has ended (done, failed or cancelled). */
    private readonly onSettled: (item: QueueItem) => void = () => undefined,
    private readonly limit = UPLOAD_CONCURRENCY,
  ) {}

  /** The entries, oldest first; a new array after every change (for useSyncExternalStore). */
  snapshot = (): readonly QueueItem[] => this.items;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  add(files: readonly File[], fields: BatchFields): void {
    const added = files.map((file): QueueItem => {
      this.counter += 1;
      return {
        id: `upload-${this.counter}`,
        file,
        fields,
        status: 'queued',
        progress: 0,
        message: null,
        httpStatus: 0,
        fileId: null,
      };
    });
    this.items = [...this.items, ...added];
    this.pump();
    this.emit();
  }

  /** A queued file leaves the queue unsent; an uploading one is aborted. */
  cancel(id: string): void {
    const item = this.find(id);
    if (item?.status === 'queued') {
      this.update(id, { status: 'cancelled' });
      this.onSettled(this.find(id) ?? item);
    } else if (item?.status === 'uploading') {
      this.handles.get(id)?.cancel();
    }
  }

  cancelAll(): void {
    for (const item of this.items) this.cancel(item.id);
  }

  /** Sends a failed or cancelled file again, at the back of the queue. */
  retry(id: string): void {
    const item = this.find(id);
    if (item?.status !== 'failed' && item?.status !== 'cancelled') return;
    this.items = [
      ...this.items.filter((entry) => entry.id !== id),
      { ...item, status: 'queued', progress: 0, message: null, httpStatus: 0 },
    ];
    this.pump();
    this.emit();
  }

  retryFailed(): void {
    for (const item of this.items.filter((entry) => entry.status === 'failed')) this.retry(item.id);
  }

  /** Takes finished entries (uploaded, failed, cancelled) off the tray; `id` alone or all. */
  dismiss(id?: string): void {
    this.items = this.items.filter(
      (item) => item.status === 'queued' || item.status === 'uploading' || (id !== undefined && item.id !== id),
    );
    this.emit();
  }

  private find(id: string): QueueItem | undefined {
    return this.items.find((item) => item.id === id);
  }

  private update(id: string, changes: Partial<QueueItem>): void {
    this.items = this.items.map((item) => (item.id === id ? { ...item, ...changes } : item));
    this.emit();
  }

  private pump(): void {
    let running = this.items.filter((item) => item.status === 'uploading').length;
    for (const item of this.items) {
      if (running >= this.limit) break;
      if (item.status !== 'queued') continue;
      running += 1;
      this.send(item);
    }
  }

  private send(queued: QueueItem): void {
    const item: QueueItem = { ...queued, status: 'uploading', progress: 0 };
    this.items = this.items.map((entry) => (entry.id === item.id ? item : entry));
    const handle = this.start(item, (progress) => {
      if (this.find(item.id)?.status === 'uploading') this.update(item.id, { progress });
    });
    this.handles.set(item.id, handle);
    void handle.done.then((result) => {
      this.handles.delete(item.id);
      if (result.ok) this.update(item.id, { status: 'done', progress: 1, fileId: result.body._id });
      else if (result.cancelled) this.update(item.id, { status: 'cancelled' });
      else this.update(item.id, { status: 'failed', message: result.message, httpStatus: result.status });
      const settled = this.find(item.id);
      if (settled) this.onSettled(settled);
      this.pump();
      this.emit();
    });
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }
}

/** Counts by status, for the tray's summary. */
export function queueSummary(items: readonly QueueItem[]): Record<QueueStatus, number> {
  const counts: Record<QueueStatus, number> = { queued: 0, uploading: 0, done: 0, failed: 0, cancelled: 0 };
  for (const item of items) counts[item.status] += 1;
  return counts;
}
