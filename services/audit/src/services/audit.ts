import type {
  AuditEntryDto,
  AuditExportEntry,
  AuditExportQuery,
  AuditPage,
  AuditProvisioningAnswer,
  AuditProvisioningQuery,
  AuditQuery,
  Envelope,
} from '@earshot/contracts';
import { SCIM_ACTOR_PREFIX } from '@earshot/contracts';
import { badRequest, companyScope, type Db, type Emit, type Identity, type ServiceContext } from '@earshot/kit';
import {
  countEntries,
  positionOf,
  readEntries,
  type EntryFilter,
  type Position,
  type ReadEntry,
} from '../repositories/entries';
import { entryOf } from './record';
import { AuditChain } from './chain-log';
import { AuditStream, auditFeed } from './stream';

const BARE_DATE = /^\d{4}-\d{2}-\d{2}$/;
/** Entries per query while an export streams: memory stays flat however long the log is. */
export const EXPORT_BATCH = 500;

/** A query bound as a Date: a bare date is the start (from) or the end (to) of that UTC day. */
function instant(value: string | undefined, field: 'from' | 'to'): Date | undefined {
  if (value === undefined) return undefined;
  const iso = BARE_DATE.test(value) ? `${value}T${field === 'from' ? '00:00:00.000' : '23:59:59.999'}Z` : value;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) {
    throw badRequest(`Invalid query.${field}: not a real date`, [
      { field: `query.${field}`, message: 'not a real date' },
    ]);
  }
  return date;
}

function invalidCursor(message: string) {
  return badRequest(`Invalid query.cursor: ${message}`, [{ field: 'query.cursor', message }]);
}

/** Cursors are opaque to clients; inside they name the last entry read by its seq. */
function encodeCursor(seq: number): string {
  return Buffer.from(`s${seq}`).toString('base64url');
}

function decodeCursor(cursor: string): number {
  const match = /^s(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  if (!match) throw invalidCursor('must be a nextCursor value from a previous answer');
  return Number(match[1]);
}

function toDto(row: ReadEntry): AuditEntryDto {
  return {
    _id: row.id,
    occurredAt: row.occurredAt.toISOString(),
    type: row.type,
    version: row.version,
    companyId: row.companyId,
    actor: row.actor,
    target: { type: row.targetType, id: row.targetId },
    before: row.before ?? null,
    after: row.after ?? null,
    data: row.data,
  };
}

/** An exported entry carries its place in the chain and both hashes: an export verifies offline. */
const toExportDto = (row: ReadEntry): AuditExportEntry => ({
  ...toDto(row),
  seq: row.seq,
  prevHash: row.prevHash,
  hash: row.hash,
});

/** The audit log: records every event once, and lists entries to the platform administrator. */
export class AuditLog {
  readonly chain: AuditChain;

  readonly stream: AuditStream;

  constructor(private readonly ctx: ServiceContext) {
    this.chain = new AuditChain(ctx.db);
    this.stream = new AuditStream(ctx.db, auditFeed(ctx));
  }

  /**
   * Stores events, in the transaction that records them as applied (redelivery adds nothing): each
   * chain's new entries in one statement, linked to the chain's head under its lock. With Kafka
   * (distributed mode), each new entry is published as `audit.entry_recorded` through the outbox,
   * in the same transaction; the all-in-one has no one to publish to and streams over HTTP instead.
   */
  async record(tx: Db, envelopes: readonly Envelope[], emit?: Emit): Promise<void> {
    await this.chain.append(tx, envelopes.map(entryOf), this.ctx.bus.kind === 'kafka' ? emit : undefined);
  }

  /** Entries newest first, by page or after a cursor; a caller scoped to one company sees only its own. */
  async list(identity: Identity, query: AuditQuery): Promise<AuditPage> {
    if (query.cursor !== undefined && query.page !== undefined)
      throw invalidCursor('give either page or cursor, not both');
    const filter = this.filterOf(identity, query);
    const { pageSize } = query;
    if (query.cursor !== undefined) {
      const seq = decodeCursor(query.cursor);
      const after = await positionOf(this.ctx.db, seq);
      if (!after) throw invalidCursor('names no entry of this log');
      return {
        ...(await this.uncounted(filter, pageSize, { after })),
        page: null,
        pageSize,
        total: null,
        totalPages: null,
      };
    }
    const page = query.page ?? 1;
    const offset = (page - 1) * pageSize;
    if (!query.withTotal)
      return { ...(await this.uncounted(filter, pageSize, { offset })), page, pageSize, total: null, totalPages: null };
    const [rows, total] = await Promise.all([
      readEntries(this.ctx.db, filter, { limit: pageSize, offset }),
      countEntries(this.ctx.db, filter),
    ]);
    const last = rows.at(-1);
    return {
      items: rows.map(toDto),
      page,
      pageSize,
      total,
      totalPages: Math.ceil(total / pageSize),
      nextCursor: last && offset + rows.length < total ? encodeCursor(last.seq) : null,
    };
  }

  /** A page read one entry past its end: whether another follows, known without counting. */
  private async uncounted(filter: EntryFilter, pageSize: number, at: { offset?: number; after?: Position }) {
    const rows = await readEntries(this.ctx.db, filter, { limit: pageSize + 1, ...at });
    const items = rows.slice(0, pageSize);
    return { items: items.map(toDto), nextCursor: rows.length > pageSize ? encodeCursor(items.at(-1)!.seq) : null };
  }

  /**
   * Every entry the filters match, newest first, read in keyset batches as the consumer pulls
   * them. The filters are checked now, so a bad query fails before anything is streamed.
   */
  export(identity: Identity, query: AuditExportQuery): AsyncGenerator<AuditExportEntry[]> {
    return this.batches(this.filterOf(identity, query));
  }

  private async *batches(filter: EntryFilter): AsyncGenerator<AuditExportEntry[]> {
    let after: Position | undefined;
    for (;;) {
      const rows = await readEntries(this.ctx.db, filter, { limit: EXPORT_BATCH, after });
      if (rows.length > 0) yield rows.map(toExportDto);
      if (rows.length < EXPORT_BATCH) return;
      const last = rows.at(-1)!;
      after = { at: last.at, seq: last.seq };
    }
  }

  /** The company's latest changes made by its identity provider (any of its SCIM tokens). */
  async provisioning(identity: Identity, query: AuditProvisioningQuery): Promise<AuditProvisioningAnswer> {
    const companyId = companyScope(identity, query.companyId) ?? undefined;
    const rows = await readEntries(
      this.ctx.db,
      { companyId, actorIdPrefix: SCIM_ACTOR_PREFIX },
      { limit: query.pageSize },
    );
    return { items: rows.map(toDto) };
  }

  private filterOf(identity: Identity, query: AuditExportQuery | AuditQuery): EntryFilter {
    const from = instant(query.from, 'from');
    const to = instant(query.to, 'to');
    if (from && to && from > to) {
      throw badRequest('Invalid query.from: must not be after query.to', [
        { field: 'query.from', message: 'must not be after query.to' },
      ]);
    }
    return {
      companyId: companyScope(identity, query.companyId) ?? undefined,
      actorId: query.actorId,
      actorEmail: query.actorEmail,
      type: query.type,
      typePrefix: query.type?.endsWith('.') ?? false,
      targetType: query.targetType,
      targetId: query.targetId,
      from,
      to,
    };
  }
}
