import { SYSTEM_ACTOR, type AuditVerifyQuery, type AuditVerifyResult } from '@earshot/contracts';
import type { Db, Emit, Identity } from '@earshot/kit';
import type { NewEntryRow } from '../db/schema';
import {
  advanceHead,
  appendRows,
  createHead,
  firstKeptSeq,
  lockHead,
  lockHeadIfAny,
  loggedIds,
  pruneThrough,
  readHead,
  readLinks,
  sealRows,
  unsealedChains,
  type Head,
  type LinkRow,
} from '../repositories/chain';
import {
  asStored,
  canonicalEntry,
  chainKeyOf,
  ChainWalker,
  GENESIS,
  hashOf,
  PLATFORM_CHAIN,
  type ChainEntry,
  type ChainState,
  type StoredLink,
} from './chain';

/** Links read per query while verifying or sealing: memory stays flat however long the chain is. */
const READ_BATCH = 5000;

/** A row about to be written, as the hash sees it: its JSON columns exactly as they will be stored. */
function chainEntryOfRow(row: NewEntryRow): ChainEntry {
  return {
    ...row,
    occurredAt: row.occurredAt.toISOString(),
    companyId: row.companyId ?? null,
    targetId: row.targetId ?? null,
    before: asStored(row.before),
    after: asStored(row.after),
    data: asStored(row.data),
  };
}

/**
 * A stored row as a link. The hash covers the time to the millisecond (what exports carry), so a
 * time the database holds with microseconds was changed outside the service; actor_id is a copy
 * of actor.id for the index, outside the hash, so it is compared here.
 */
export function linkOf(row: LinkRow): StoredLink {
  const defect =
    row.actorId !== (row.actor.id ?? null)
      ? 'its actor_id column no longer matches actor.id'
      : !row.at.endsWith('000Z')
        ? 'its time was given microseconds'
        : undefined;
  return {
    seq: row.seq,
    prevHash: row.prevHash,
    hash: row.hash,
    entry: { ...row, occurredAt: `${row.at.slice(0, 23)}Z` },
    ...(defect ? { defect } : {}),
  };
}

/** Appends to the chains, seals entries written before them, and verifies a chain from the database. */
export class AuditChain {
  constructor(private readonly db: Db) {}

  /**
   * Appends rows to their chains inside the caller's transaction. Chains are locked in key order (no
   * two batches wait on each other in a circle); an entry already logged is skipped before its
   * link is made, so a redelivered event never leaves a link that is not in the table. With
   * `publish`, each new entry goes out as `audit.entry_recorded`, in chain order.
   */
  async append(tx: Db, rows: readonly NewEntryRow[], publish?: Emit): Promise<void> {
    const byChain = new Map<string, NewEntryRow[]>();
    const seen = new Set<string>();
    for (const row of rows) {
      const id = row.id.toLowerCase();
      if (seen.has(id)) continue;
      seen.add(id);
      const key = chainKeyOf(row.companyId);
      const list = byChain.get(key) ?? [];
      if (list.length === 0) byChain.set(key, list);
      list.push(row);
    }
    for (const key of [...byChain.keys()].sort()) {
      const head = await this.open(tx, key);
      const logged = await loggedIds(
        tx,
        byChain.get(key)!.map((row) => row.id),
      );
      const fresh = byChain.get(key)!.filter((row) => !logged.has(row.id.toLowerCase()));
      if (fresh.length === 0) continue;
      let prevHash = head.hash ?? GENESIS;
      const entries = fresh.map(chainEntryOfRow);
      const linked = fresh.map((row, i) => {
        const hash = hashOf(entries[i]!, prevHash);
        const link = { ...row, prevHash, hash };
        prevHash = hash;
        return link;
      });
      const seqs = await appendRows(tx, linked);
      await advanceHead(tx, key, Math.max(...seqs.values()), prevHash, linked.length);
      // In the append's transaction (the outbox): published once the chain holds them, never before.
      if (publish)
        linked.forEach((link, i) =>
          publish({
            type: 'audit.entry_recorded',
            companyId: link.companyId ?? null,
            actor: SYSTEM_ACTOR,
            data: {
              companyId: link.companyId ?? null,
              seq: seqs.get(link.id.toLowerCase())!,
              prevHash: link.prevHash,
              hash: link.hash,
              entry: canonicalEntry(entries[i]!, link.prevHash),
            },
          }),
        );
    }
  }

  /** Seals every chain that still holds entries from before the chain (once per chain, at start). */
  async sealOldEntries(transact: <T>(fn: (tx: Db) => Promise<T>) => Promise<T>): Promise<number> {
    const keys = await unsealedChains(this.db);
    for (const key of keys) await transact((tx) => this.open(tx, key));
    return keys.length;
  }

  /** The chain's head, locked; a chain seen for the first time first seals the entries it already has, in seq order. */
  private async open(tx: Db, key: string): Promise<Head> {
    const created = await createHead(tx, key);
    const head = await lockHead(tx, key);
    if (!created) return head;
    let prevHash = GENESIS;
    let after = 0;
    let count = 0;
    for (;;) {
      const rows = await readLinks(tx, key, after, READ_BATCH, true);
      const seals = rows.map((row) => {
        const hash = hashOf(linkOf(row).entry, prevHash);
        const seal = { seq: row.seq, prevHash, hash };
        prevHash = hash;
        return seal;
      });
      await sealRows(tx, seals);
      count += seals.length;
      after = rows.at(-1)?.seq ?? after;
      if (rows.length < READ_BATCH) break;
    }
    if (count === 0) return head;
    await advanceHead(tx, key, after, prevHash, count);
    return { ...head, seq: after, hash: prevHash, entries: count };
  }

  /**
   * Retention: cuts up to `limit` of the chain's oldest entries that happened before
   * `olderThan`, from its start only (the first entry at or after it, and everything after, stay;
   * so does the chain's last entry). What is cut is verified first, from the recorded base: a
   * broken stretch is left in place, as evidence, and named instead. The head row records the new
   * base (seq, hash) and chain_checkpoints the cut, in the same transaction as the deletes.
   */
  async prune(tx: Db, key: string, olderThan: Date, limit: number): Promise<{ removed: number; broken?: string }> {
    const head = await lockHeadIfAny(tx, key);
    if (!head?.seq) return { removed: 0 };
    const base = head.baseSeq ?? 0;
    const boundary = Math.min((await firstKeptSeq(tx, key, base, olderThan)) ?? head.seq, head.seq);
    const due = (await readLinks(tx, key, base, limit)).filter((row) => row.seq < boundary);
    if (due.length === 0) return { removed: 0 };
    const walker = new ChainWalker(head.baseHash ?? GENESIS);
    if (!due.every((row) => walker.add(linkOf(row)))) return { removed: 0, broken: walker.broken!.message };
    const last = due.at(-1)!;
    await pruneThrough(tx, { key, fromSeq: base, toSeq: last.seq, hash: last.hash!, removed: due.length, olderThan });
    return { removed: due.length };
  }

  /**
   * Verifies a chain: every link recomputed in chain order from one snapshot, then its end against
   * the head record. A company's ADMIN verifies their own company only (another company is a 404);
   * the platform administrator any company, or the platform's own chain without companyId.
   */
  async verify(identity: Identity, query: AuditVerifyQuery): Promise<AuditVerifyResult> {
    // The audit log is the platform administrator's alone (the spec's permission table).
    const companyId = query.companyId ?? null;
    const state = await this.verifyChain(chainKeyOf(companyId));
    return { ok: !state.brokenAt, companyId, ...state };
  }

  async verifyChain(key: string = PLATFORM_CHAIN): Promise<ChainState> {
    return this.db.transaction(
      async (tx) => {
        const head = await readHead(tx as unknown as Db, key);
        // A chain retention cut starts at its recorded base: the first kept entry links to that hash.
        const walker = new ChainWalker(head?.baseHash ?? GENESIS);
        const read = (after: number) => readLinks(tx as unknown as Db, key, after, READ_BATCH);
        // The next batch is asked for before this one is hashed: the database reads while Node hashes.
        let next = read(0);
        for (;;) {
          const rows = await next;
          if (rows.length === READ_BATCH) next = read(rows.at(-1)!.seq);
          for (const row of rows) {
            if (!walker.add(linkOf(row))) {
              if (rows.length === READ_BATCH) await next;
              return walker.state();
            }
          }
          if (rows.length < READ_BATCH) break;
        }
        return walker.end(head ? { entries: head.entries - head.pruned, head: head.hash } : { entries: 0, head: null });
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
  }
}
