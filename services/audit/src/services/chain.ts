import { createHash } from 'node:crypto';
import type { AuditChainBreak, AuditChainedEntry } from '@earshot/contracts';

/**
 * The hash chain over the audit log: pure functions, shared by the service (append, verify from
 * the database) and by `npm run audit -- verify` on an export file. The canonical form is written
 * out in services/audit/README.md ("Hash chain"); change it only with a new CHAIN_VERSION.
 */
export const CHAIN_VERSION = 1;
/** The prevHash of a chain's first entry. */
export const GENESIS = '0'.repeat(64);
/** The platform's own chain (entries with no company) in chain_heads; company ids are never empty. */
export const PLATFORM_CHAIN = '';

export const chainKeyOf = (companyId: string | null | undefined): string => companyId || PLATFORM_CHAIN;

/**
 * What an entry's hash covers: every stored column but seq, recorded_at and actor_id (a copy of
 * actor.id, checked apart). before, after and data as the database gives them back (asStored).
 */
export interface ChainEntry {
  id: string;
  /** ISO-8601 UTC with milliseconds, as Date#toISOString writes it. */
  occurredAt: string;
  type: string;
  version: number;
  companyId: string | null;
  actor: { type: string; id?: string | null; email?: string | null; role?: string | null; ip?: string | null };
  targetType: string;
  targetId: string | null;
  before: unknown;
  after: unknown;
  data: unknown;
}

/** Empty or absent text is null: a CSV cell cannot tell them apart, so the hash does not either. */
const text = (value: string | null | undefined): string | null =>
  value === undefined || value === null || value === '' ? null : value;

/** JSON with object keys sorted (UTF-16 code units, as Array#sort) at every depth; members whose value is undefined are left out, as JSON.stringify does. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value))
    return `[${value.map((item) => (item === undefined ? 'null' : canonicalJson(item))).join(',')}]`;
  const members = Object.keys(value)
    .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
  return `{${members.join(',')}}`;
}

/** A stored JSON column's value as the database gives it back: what JSON.stringify made of it (toJSON, NaN → null...). */
export const asStored = (value: unknown): unknown => (value === undefined ? null : JSON.parse(JSON.stringify(value)));

/**
 * The object whose canonical JSON is hashed for one entry: what `audit.entry_recorded` carries as
 * its `entry`, so an outside consumer hashes it as it comes (`canonicalJson`, SHA-256).
 */
export function canonicalEntry(entry: ChainEntry, prevHash: string): AuditChainedEntry {
  const { actor } = entry;
  return {
    v: CHAIN_VERSION,
    prevHash,
    id: entry.id.toLowerCase(),
    occurredAt: entry.occurredAt,
    type: entry.type,
    version: entry.version,
    companyId: text(entry.companyId),
    actor: {
      type: actor.type,
      id: text(actor.id),
      email: text(actor.email),
      role: text(actor.role),
      ip: text(actor.ip),
    },
    target: { type: entry.targetType, id: text(entry.targetId) },
    before: entry.before ?? null,
    after: entry.after ?? null,
    data: entry.data ?? null,
  };
}

/** The exact text that is hashed for one entry. */
export const canonicalForm = (entry: ChainEntry, prevHash: string): string =>
  canonicalJson(canonicalEntry(entry, prevHash));

export const hashOf = (entry: ChainEntry, prevHash: string): string =>
  createHash('sha256').update(canonicalForm(entry, prevHash), 'utf8').digest('hex');

/** One stored link: the entry, where it sits (seq orders a chain), and the two hashes it holds. */
export interface StoredLink {
  seq: number;
  entry: ChainEntry;
  prevHash: string | null;
  hash: string | null;
  /** A mismatch found outside the hash (the database's actor_id column, a sub-millisecond time): the entry was changed. */
  defect?: string;
}

/** An entry as exports and the stream write it (its target one object) as the chain reads it. */
export function chainEntryOf(
  entry: Omit<ChainEntry, 'targetType' | 'targetId'> & { target: { type: string; id: string | null } },
): ChainEntry {
  return {
    id: entry.id,
    occurredAt: entry.occurredAt,
    type: entry.type,
    version: entry.version,
    companyId: entry.companyId,
    actor: entry.actor,
    targetType: entry.target.type,
    targetId: entry.target.id,
    before: entry.before,
    after: entry.after,
    data: entry.data,
  };
}

/** An entry as `audit.entry_recorded` carries it (its data), read off the stream. */
export interface PublishedLink {
  seq: number;
  prevHash: string;
  hash: string;
  entry: AuditChainedEntry;
}

/**
 * A published entry as a link for the walker: its hash is recomputed from the entry as the chain
 * reads it, and the entry must be exactly its canonical form (no member added, its own prevHash
 * the message's), or whatever it carries beyond would pass outside every hash.
 */
export function linkOfPublished(published: PublishedLink): StoredLink {
  const { entry } = published;
  const chainEntry = chainEntryOf(entry);
  const exact = canonicalJson(entry) === canonicalForm(chainEntry, published.prevHash);
  return {
    seq: published.seq,
    prevHash: published.prevHash,
    hash: published.hash,
    entry: chainEntry,
    ...(exact ? {} : { defect: 'the entry it carries is not exactly its canonical form' }),
  };
}

export interface ChainState {
  entries: number;
  /** The last entry's hash; null for an empty chain. */
  head: string | null;
  brokenAt?: AuditChainBreak;
}

/**
 * Walks one chain's links in seq order and stops at the first that does not hold. `start` is the
 * prevHash the first link must carry: GENESIS for a whole chain.
 */
export class ChainWalker {
  private expected: string;
  private count = 0;
  broken?: AuditChainBreak;

  constructor(start: string = GENESIS) {
    this.expected = start;
  }

  /** Feeds the next link; false once the chain is broken (later links are not looked at). */
  add(link: StoredLink): boolean {
    if (this.broken) return false;
    const position = this.count + 1;
    const at = { position, seq: link.seq, id: link.entry.id };
    if (link.hash === null || link.prevHash === null) {
      this.broken = {
        ...at,
        reason: 'unsealed',
        message: `entry ${position} (seq ${link.seq}, id ${link.entry.id}) carries no hash: it was added outside the audit service`,
      };
    } else if (link.prevHash !== this.expected) {
      this.broken = {
        ...at,
        reason: 'link',
        message: `entry ${position} (seq ${link.seq}, id ${link.entry.id}) does not follow the entry before it: an entry was removed, inserted or reordered here`,
      };
    } else if (link.defect !== undefined || hashOf(link.entry, link.prevHash) !== link.hash) {
      this.broken = {
        ...at,
        reason: 'content',
        message: `entry ${position} (seq ${link.seq}, id ${link.entry.id}) was changed after it was recorded${link.defect ? ` (${link.defect})` : ''}`,
      };
    } else {
      this.expected = link.hash;
      this.count = position;
      return true;
    }
    return false;
  }

  /** The chain so far; `head` is the hash of the last link that held. */
  state(): ChainState {
    const head = this.count === 0 ? null : this.expected;
    return this.broken ? { entries: this.count, head, brokenAt: this.broken } : { entries: this.count, head };
  }

  /**
   * Checks the end against what the chain's head record (or an anchor) says: entries cut from the
   * end, or added after it, leave every remaining link valid and only show here.
   */
  end(recorded: { entries: number; head: string | null } | null): ChainState {
    if (!this.broken && recorded && (recorded.entries !== this.count || recorded.head !== this.state().head)) {
      this.broken = {
        position: this.count + 1,
        seq: null,
        id: null,
        reason: 'head',
        message: `the chain has ${this.count} entries ending in ${short(this.state().head)}, but its head record says ${recorded.entries} ending in ${short(recorded.head)}: entries were removed from or added at its end`,
      };
    }
    return this.state();
  }
}

const short = (hash: string | null) => (hash ? hash.slice(0, 12) : 'nothing');
