import { createHash, type Hash } from 'node:crypto';
import { mkdir, open, rename, rm, stat, statfs } from 'node:fs/promises';
import { dirname } from 'node:path';
import {
  SPEECH_MODEL_MESSAGES as MESSAGES,
  SPEECH_MODEL_NO_SPACE,
  SYSTEM_ACTOR,
  type Actor,
  type SpeechModelDto,
  type SpeechModelEntry,
  type SpeechReadinessDto,
} from '@earshot/contracts';
import { conflict, HttpError, notFound, unrefInterval, type NewEvent, type ServiceContext } from '@earshot/kit';
import type { TranscriptionConfig } from '../config';
import {
  claimIdleDownloads,
  defaultModelRow,
  listModelRows,
  lockModelRow,
  modelRow,
  recordProgress,
  removeModelRow,
  saveModelRow,
  setDefaultModel,
  updateModelRow,
  type SpeechModelRow,
} from '../repositories/speech-models';
import { DownloadFailure, fetchFollowing, formatBytes, hashFile, parseContentRange } from './fetch';
import { defaultWhisperModel, diarizationModels } from './store';
import { catalogueOf, downloadUrl, mirrorVariable, modelPath } from './settings';

/** The part of `fs.statfs`'s answer the space check reads (a test passes its own). */
export type StatFs = (path: string) => Promise<{ bavail: number | bigint; bsize: number | bigint }>;

export interface ManagerOptions {
  statfs?: StatFs;
  /** Called on every chunk of a download (the command line draws its progress bar from it). */
  onProgress?: (name: string, bytesDone: number, total: number) => void;
}

/** Kept free besides the model itself, so a download never fills the disk the database and audio share. */
export const SPACE_MARGIN_BYTES = 64 * 1024 * 1024;
/** Progress reaches the table at most this often (about 4 times a second). */
const PROGRESS_EVERY_MS = 250;
/** A download receiving nothing for this long is given up (and marked failed: Download resumes it). */
const STALL_MS = 60_000;
/** Another process takes over a download whose progress has not moved for this long (its process died). */
const ORPHAN_MS = 2 * STALL_MS;
const SWEEP_EVERY_MS = 30_000;

const partOf = (path: string) => `${path}.part`;

/** The row stopped being this download (cancelled or deleted through another process). */
class Superseded extends Error {}

async function sizeOf(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
}

interface Running {
  controller: AbortController;
  done: Promise<void>;
}

/**
 * Downloads, checks, removes and chooses the speech models of this machine (see the README,
 * "Speech models"). Downloads run in this process; their state lives in `speech_models`, so every
 * process (and the command line) sees the same list, and a download left behind by a stopped
 * process continues in the next one.
 */
export class SpeechModelManager {
  private readonly running = new Map<string, Running>();
  private readonly statfs: StatFs;
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly ctx: ServiceContext<TranscriptionConfig>,
    private readonly options: ManagerOptions = {},
  ) {
    this.statfs = options.statfs ?? statfs;
  }

  private entry(name: string): SpeechModelEntry | undefined {
    return catalogueOf(this.ctx.config).find((m) => m.name === name);
  }

  async list(): Promise<SpeechModelDto[]> {
    const rows = new Map((await listModelRows(this.ctx.db)).map((r) => [r.name, r]));
    const catalogue = catalogueOf(this.ctx.config);
    const listed = catalogue.map((entry) => toDto(entry, rows.get(entry.name)));
    // A model downloaded from an earlier catalogue stays listed until it is deleted.
    for (const row of rows.values())
      if (!catalogue.some((e) => e.name === row.name) && row.status !== 'absent') listed.push(toDto(undefined, row));
    return listed;
  }

  /** What a recording gets from the installed models, in two facts every role may read. */
  async readiness(): Promise<SpeechReadinessDto> {
    const [whisper, diarization] = await Promise.all([
      defaultWhisperModel(this.ctx.db),
      diarizationModels(this.ctx.db),
    ]);
    return { whisper: whisper !== null, speakerSeparation: diarization !== null };
  }

  async get(name: string): Promise<SpeechModelDto> {
    const entry = this.entry(name);
    const row = await modelRow(this.ctx.db, name);
    if (!entry && !row) throw notFound(`Speech model "${name}"`);
    return toDto(entry, row);
  }

  /** Starts (or resumes) a download; answers at once, the download goes on in the background. */
  async download(name: string, actor: Actor): Promise<SpeechModelDto> {
    const entry = this.entry(name);
    if (!entry) throw notFound(`Speech model "${name}"`);
    const path = modelPath(this.ctx.config, entry);
    await mkdir(dirname(path), { recursive: true });
    const have = await sizeOf(partOf(path));
    const before = await modelRow(this.ctx.db, name);
    // The server's length, once a partial download learnt it, beats the catalogue's.
    const size = have > 0 && before ? before.size : entry.sizeBytes;
    await this.checkSpace(name, dirname(path), size - have);
    const row = await this.ctx.transact(async (tx) => {
      const current = await lockModelRow(tx, name);
      if (current?.status === 'downloading') throw conflict(MESSAGES.alreadyDownloading(name));
      if (current?.status === 'ready') throw conflict(MESSAGES.alreadyReady(name));
      const next = {
        name,
        kind: entry.kind,
        languages: entry.languages,
        path,
        url: downloadUrl(this.ctx.config, entry),
        size,
        sha256: entry.sha256,
        status: 'downloading' as const,
        bytesDone: have,
        error: null,
        isDefault: false,
        requestedBy: actor,
      };
      await saveModelRow(tx, next);
      return { ...next, updatedAt: new Date() };
    });
    this.launch(row);
    return toDto(entry, row);
  }

  /** Stops a download and keeps what it fetched: Download continues from there (delete removes it). */
  async cancel(name: string): Promise<SpeechModelDto> {
    if (!this.entry(name) && !(await modelRow(this.ctx.db, name))) throw notFound(`Speech model "${name}"`);
    await this.ctx.transact(async (tx) => {
      const row = await lockModelRow(tx, name);
      if (row?.status !== 'downloading') throw conflict(MESSAGES.notDownloading(name));
      await updateModelRow(tx, name, { status: 'absent', error: null });
    });
    // Another process running it sees the row change on its next progress write and stops.
    await this.abort(name, 'cancelled');
    const row = await modelRow(this.ctx.db, name);
    // The list shows how much is kept (progress writes lag the file by up to a quarter second).
    if (row?.status === 'absent')
      await updateModelRow(this.ctx.db, name, { bytesDone: await sizeOf(partOf(row.path)) });
    return this.get(name);
  }

  /**
   * Deletes the file and any partial download, and stops being the default. A job that already
   * loaded the model finishes with it (the engine holds it in memory); the next job uses another engine.
   */
  async remove(name: string, actor: Actor): Promise<SpeechModelDto> {
    const entry = this.entry(name);
    if (!entry && !(await modelRow(this.ctx.db, name))) throw notFound(`Speech model "${name}"`);
    await this.abort(name, 'cancelled');
    const row = await this.ctx.transact(async (tx, emit) => {
      const current = await lockModelRow(tx, name);
      if (!current) return undefined;
      if (entry)
        await updateModelRow(tx, name, {
          status: 'absent',
          bytesDone: 0,
          error: null,
          isDefault: false,
          sha256: entry.sha256,
          size: entry.sizeBytes,
        });
      else await removeModelRow(tx, name);
      if (current.status === 'ready' || current.bytesDone > 0) emit(event('speech_model.removed', actor, { name }));
      if (current.isDefault) emit(event('speech_model.default_changed', actor, { name: null, before: name }));
      return current;
    });
    const path = row?.path ?? (entry ? modelPath(this.ctx.config, entry) : undefined);
    if (path) await Promise.all([rm(path, { force: true }), rm(partOf(path), { force: true })]);
    return entry ? this.get(name) : toDto(undefined, { ...row!, status: 'absent', bytesDone: 0, isDefault: false });
  }

  /** Makes a ready Whisper model the offline engine's model (409 for any other). */
  async makeDefault(name: string, actor: Actor): Promise<SpeechModelDto> {
    const entry = this.entry(name);
    if (!entry && !(await modelRow(this.ctx.db, name))) throw notFound(`Speech model "${name}"`);
    await this.ctx.transact(async (tx, emit) => {
      const row = await lockModelRow(tx, name);
      if (row?.status !== 'ready') throw conflict(MESSAGES.notReady(name));
      if (row.kind !== 'whisper') throw conflict(MESSAGES.notWhisper(name));
      if (row.isDefault) return;
      const before = await defaultModelRow(tx);
      await setDefaultModel(tx, name);
      emit(event('speech_model.default_changed', actor, { name, before: before?.name ?? null }));
    });
    return this.get(name);
  }

  isDownloadingHere(name: string): boolean {
    return this.running.has(name);
  }

  /** The download of `name` running in this process, until it ends (the command line waits on it). */
  settled(name: string): Promise<void> {
    return this.running.get(name)?.done ?? Promise.resolve();
  }

  /** Continues the downloads left `downloading` by a stopped process, now and then every 30 s. */
  async start(): Promise<void> {
    await this.adoptOrphans();
    // Only one process can open an embedded database: whatever is left there is ours at once.
    if (this.ctx.database.kind === 'postgres') {
      this.sweeper = unrefInterval(
        () =>
          void this.adoptOrphans().catch((error: unknown) =>
            this.ctx.logger.warn({ err: error }, 'speech model sweep failed'),
          ),
        SWEEP_EVERY_MS,
      );
    }
  }

  /** Stops this process's downloads, leaving them `downloading`: the next start continues them. */
  async stop(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([...this.running.keys()].map((name) => this.abort(name, 'stopping')));
  }

  private async adoptOrphans(): Promise<void> {
    const idle = this.ctx.database.kind === 'pglite' ? 0 : ORPHAN_MS;
    for (const row of await claimIdleDownloads(this.ctx.db, idle)) this.launch(row);
  }

  private async abort(name: string, reason: 'cancelled' | 'stopping'): Promise<void> {
    const running = this.running.get(name);
    if (!running) return;
    running.controller.abort(reason);
    await running.done;
  }

  private async checkSpace(name: string, dir: string, remaining: number): Promise<void> {
    const free = await freeBytes(dir, this.statfs);
    const needed = Math.max(0, remaining) + SPACE_MARGIN_BYTES;
    if (free < needed) {
      throw new HttpError(
        507,
        `Not enough disk space to download "${name}": it needs ${formatBytes(needed)} in ${dir} ` +
          `(${formatBytes(SPACE_MARGIN_BYTES)} of it kept free) and ${formatBytes(free)} is free. Free some space, or set SPEECH_MODELS_DIR to a larger disk.`,
        SPEECH_MODEL_NO_SPACE,
      );
    }
  }

  private launch(row: SpeechModelRow): void {
    if (this.running.has(row.name)) return;
    const controller = new AbortController();
    const done = this.transfer(row, controller.signal)
      .catch((error: unknown) => this.failed(row, error, controller.signal))
      .catch((error: unknown) =>
        this.ctx.logger.error({ err: error, model: row.name }, 'could not record a speech model download failure'),
      )
      .finally(() => this.running.delete(row.name));
    this.running.set(row.name, { controller, done });
  }

  private async transfer(row: SpeechModelRow, signal: AbortSignal): Promise<void> {
    const part = partOf(row.path);
    let hash: Hash = createHash('sha256');
    let done = await hashFile(part, hash);
    // The server must go quiet for STALL_MS before we give up; any byte resets the clock.
    const stall = new AbortController();
    let stallTimer = setTimeout(() => stall.abort('stalled'), STALL_MS);
    const both = AbortSignal.any([signal, stall.signal]);
    try {
      const response = await fetchFollowing(
        row.url,
        done > 0 ? { range: `bytes=${done}-` } : {},
        both,
        mirrorVariable(this.entry(row.name)),
      );
      let total: number;
      if (response.status === 206) {
        const range = parseContentRange(response.headers.get('content-range'));
        if (!range || range.start !== done)
          throw new DownloadFailure(
            `${row.url} resumed at the wrong place (${response.headers.get('content-range') ?? 'no Content-Range'}); delete the model and download it again`,
            true,
          );
        total = range.total ?? done + Number(response.headers.get('content-length') ?? row.size - done);
      } else if (response.status === 416 && done > 0) {
        // Nothing left to send: the part is the whole file (the process stopped before checking it).
        await response.body?.cancel();
        total = Number(/\/(\d+)$/.exec(response.headers.get('content-range') ?? '')?.[1] ?? done);
      } else if (response.ok) {
        // The server ignored the range: start over.
        if (done > 0) hash = createHash('sha256');
        done = 0;
        total = Number(response.headers.get('content-length') ?? row.size);
      } else {
        await response.body?.cancel();
        throw new DownloadFailure(
          `${row.url} answered ${response.status} ${response.statusText}`.trim() +
            ': check SPEECH_MODELS_URL (or the mirror) serves this file',
        );
      }
      if (total !== row.size) await updateModelRow(this.ctx.db, row.name, { size: total });
      if (response.status !== 416)
        done = await this.receive(
          row,
          response,
          part,
          done,
          total,
          hash,
          () => {
            clearTimeout(stallTimer);
            stallTimer = setTimeout(() => stall.abort('stalled'), STALL_MS);
          },
          signal,
        );
      await this.finish(row, part, done, total, hash.digest('hex'));
    } catch (error) {
      if (stall.signal.aborted && !signal.aborted)
        throw new DownloadFailure(`${row.url} sent nothing for ${STALL_MS / 1000} s; Download again to resume`);
      throw error;
    } finally {
      clearTimeout(stallTimer);
    }
  }

  private async receive(
    row: SpeechModelRow,
    response: Response,
    part: string,
    start: number,
    total: number,
    hash: Hash,
    alive: () => void,
    signal: AbortSignal,
  ): Promise<number> {
    const file = await open(part, start > 0 ? 'a' : 'w');
    let done = start;
    let lastWrite = 0;
    try {
      if (!response.body) throw new DownloadFailure(`${row.url} sent no body`);
      for await (const chunk of response.body) {
        alive();
        done += chunk.length;
        if (done > total)
          throw new DownloadFailure(
            `${row.url} sent more than the ${formatBytes(total)} it announced; the file was removed`,
            true,
          );
        hash.update(chunk);
        await file.write(chunk);
        this.options.onProgress?.(row.name, done, total);
        if (Date.now() - lastWrite >= PROGRESS_EVERY_MS) {
          lastWrite = Date.now();
          // The row stopped being a download (cancelled, deleted) elsewhere: stop too.
          if (!(await recordProgress(this.ctx.db, row.name, done, total))) throw new Superseded();
        }
      }
      await file.sync();
    } catch (error) {
      if (error instanceof DownloadFailure || error instanceof Superseded || signal.aborted) throw error;
      // The server or the network dropped the connection: what arrived is kept for the resume.
      throw new DownloadFailure(
        `The connection closed after ${formatBytes(done)} of ${formatBytes(total)} (${error instanceof Error ? error.message : String(error)}); Download again to resume from there`,
      );
    } finally {
      await file.close();
    }
    return done;
  }

  private async finish(row: SpeechModelRow, part: string, done: number, total: number, sha256: string): Promise<void> {
    if (done < total) {
      throw new DownloadFailure(
        `The connection closed after ${formatBytes(done)} of ${formatBytes(total)}; Download again to resume from there`,
      );
    }
    if (row.sha256 && sha256 !== row.sha256) {
      throw new DownloadFailure(
        `The downloaded file's SHA-256 is ${sha256}, not the expected ${row.sha256}: the file was removed. ` +
          'Check that SPEECH_MODELS_URL (or the mirror) serves the official file, then download again',
        true,
      );
    }
    await this.ctx.transact(async (tx, emit) => {
      const current = await lockModelRow(tx, row.name);
      if (current?.status !== 'downloading') return;
      await rename(part, row.path);
      await updateModelRow(tx, row.name, { status: 'ready', bytesDone: total, size: total, sha256, error: null });
      const actor = current.requestedBy ?? SYSTEM_ACTOR;
      emit(event('speech_model.ready', actor, { name: row.name, sha256, sizeBytes: total }));
      // The first Whisper model ready while none is the default becomes it: download, then transcribe.
      if (row.kind === 'whisper' && !(await defaultModelRow(tx))) {
        await setDefaultModel(tx, row.name);
        emit(event('speech_model.default_changed', actor, { name: row.name, before: null }));
      }
    });
  }

  private async failed(row: SpeechModelRow, error: unknown, signal: AbortSignal): Promise<void> {
    // Cancelled (the row says so already) or stopping (the next start continues): nothing to record.
    if (signal.aborted || error instanceof Superseded) return;
    const removePart = error instanceof DownloadFailure && error.removePart;
    const reason =
      error instanceof DownloadFailure
        ? error.message
        : `The download of "${row.name}" from ${row.url} stopped: ${error instanceof Error ? error.message : String(error)}. Download again to resume`;
    this.ctx.logger.warn({ model: row.name, reason }, 'speech model download failed');
    if (removePart) await rm(partOf(row.path), { force: true });
    await this.ctx.transact(async (tx) => {
      const current = await lockModelRow(tx, row.name);
      if (current?.status !== 'downloading') return;
      await updateModelRow(tx, row.name, { status: 'failed', error: reason, ...(removePart ? { bytesDone: 0 } : {}) });
    });
  }
}

/** Bytes an unprivileged process may still write in `dir`'s file system. */
export async function freeBytes(dir: string, fsStat: StatFs = statfs): Promise<number> {
  const { bavail, bsize } = await fsStat(dir);
  return Number(bavail) * Number(bsize);
}

function event(
  type: 'speech_model.ready' | 'speech_model.removed' | 'speech_model.default_changed',
  actor: Actor,
  data: Record<string, unknown>,
): NewEvent {
  return { type, companyId: null, actor, data };
}

function toDto(entry: SpeechModelEntry | undefined, row: SpeechModelRow | undefined): SpeechModelDto {
  const size = row?.size ?? entry?.sizeBytes ?? 0;
  const status = row?.status ?? 'absent';
  return {
    name: entry?.name ?? row!.name,
    kind: entry?.kind ?? row!.kind,
    languages: entry?.languages ?? row!.languages,
    sizeBytes: size,
    status,
    progress: status === 'ready' ? 1 : size > 0 ? Math.min(1, (row?.bytesDone ?? 0) / size) : 0,
    sha256: row?.sha256 ?? entry?.sha256 ?? null,
    isDefault: row?.isDefault ?? false,
    error: status === 'failed' ? (row?.error ?? null) : null,
  };
}

/**
 * The manager of each context whose API is mounted (its routes made it): downloads run in the API
 * process, so a stand-alone worker, which mounts no routes, has none and resumes nothing.
 */
const managers = new WeakMap<ServiceContext<TranscriptionConfig>, SpeechModelManager>();

export function speechModelManager(ctx: ServiceContext<TranscriptionConfig>): SpeechModelManager {
  let manager = managers.get(ctx);
  if (!manager) {
    manager = new SpeechModelManager(ctx);
    managers.set(ctx, manager);
  }
  return manager;
}

export const mountedSpeechModels = (ctx: ServiceContext<TranscriptionConfig>) => managers.get(ctx);
