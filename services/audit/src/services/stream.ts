import type { AuditStreamQuery } from '@earshot/contracts';
import { perContext, type Db, type ServiceContext } from '@earshot/kit';
import { readHead, readLinks, type LinkRow } from '../repositories/chain';
import { linkOf } from './chain-log';
import { canonicalEntry, chainKeyOf, GENESIS } from './chain';

/** Entries read per query while a stream catches up. */
const STREAM_BATCH = 500;
/**
 * A stream with nothing to send writes a bare newline this often: proxies and load balancers keep
 * an idle connection open, and the client learns the stream is alive. Each beat also reads the
 * chain again, which is how a stream notices entries another replica of the service recorded.
 */
export const STREAM_HEARTBEAT_MS = 15_000;

/**
 * Wakes the open streams of one service context when entries were committed. A counter rather
 * than an event: a stream notes it before reading, so a commit that lands between its read and
 * its wait still wakes it.
 */
export class AuditFeed {
  private count = 0;
  private waiters = new Set<() => void>();
  /** Set when the server closes: every stream ends, so the server's close does not wait on them. */
  closed = false;

  get version(): number {
    return this.count;
  }

  /** Streams waiting now (each open stream that has caught up). */
  get waiting(): number {
    return this.waiters.size;
  }

  wake(): void {
    this.count += 1;
    const waiting = [...this.waiters];
    this.waiters.clear();
    waiting.forEach((resolve) => resolve());
  }

  close(): void {
    this.closed = true;
    this.wake();
  }

  /** Resolves once something was committed after `seen`, after `ms`, or when `signal` aborts: 'woken' or 'idle'. */
  wait(seen: number, ms: number, signal: AbortSignal): Promise<'woken' | 'idle'> {
    if (this.count !== seen) return Promise.resolve('woken');
    if (signal.aborted || this.closed) return Promise.resolve('idle');
    return new Promise((resolve) => {
      const done = (how: 'woken' | 'idle') => {
        clearTimeout(timer);
        signal.removeEventListener('abort', aborted);
        this.waiters.delete(woken);
        resolve(how);
      };
      const woken = () => done('woken');
      const aborted = () => done('idle');
      // The beat alone never keeps a process alive that is otherwise done.
      const timer = setTimeout(() => done('idle'), ms).unref();
      this.waiters.add(woken);
      signal.addEventListener('abort', aborted, { once: true });
    });
  }
}

/** The feed the routes and the event handler of one context share. */
export const auditFeed = perContext((_ctx: ServiceContext) => new AuditFeed());

/** One stored entry as a stream line: the shape `audit.entry_recorded` carries on Kafka. */
function lineOf(row: LinkRow): string {
  const link = linkOf(row);
  return `${JSON.stringify({
    companyId: row.companyId ?? null,
    seq: row.seq,
    prevHash: row.prevHash,
    hash: row.hash,
    entry: canonicalEntry(link.entry, row.prevHash ?? GENESIS),
  })}\n`;
}

/**
 * One chain as it grows: entries are read from the database in chain order (seq), so a stream
 * sends exactly what the chain holds, and waits on the feed (or a heartbeat) when it has caught up.
 */
export class AuditStream {
  constructor(
    private readonly db: Db,
    private readonly feed: AuditFeed,
    private readonly heartbeatMs = STREAM_HEARTBEAT_MS,
  ) {}

  /** Ends every open stream (the server is closing). */
  close(): void {
    this.feed.close();
  }

  /**
   * Fixes where the stream starts now (so nothing recorded after the call is missed) and returns
   * its text: a newline at once (the stream is open), then entry lines and heartbeats until `signal` aborts.
   */
  async open(query: AuditStreamQuery, signal: AbortSignal): Promise<AsyncGenerator<string>> {
    const key = chainKeyOf(query.companyId);
    const after = query.fromSeq !== undefined ? query.fromSeq - 1 : ((await readHead(this.db, key))?.seq ?? 0);
    return this.lines(key, after, signal);
  }

  private async *lines(key: string, start: number, signal: AbortSignal): AsyncGenerator<string> {
    let after = start;
    yield '\n';
    while (!signal.aborted && !this.feed.closed) {
      const seen = this.feed.version;
      const rows = await readLinks(this.db, key, after, STREAM_BATCH);
      if (rows.length > 0) {
        yield rows.map(lineOf).join('');
        after = rows.at(-1)!.seq;
        if (rows.length === STREAM_BATCH) continue;
      }
      if ((await this.feed.wait(seen, this.heartbeatMs, signal)) === 'idle' && !signal.aborted && !this.feed.closed)
        yield '\n';
    }
  }
}
