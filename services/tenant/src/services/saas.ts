import type { EventOf, SaasDto } from '@earshot/contracts';
import { processBilling, type BillingPort, type Db, type ServiceContext } from '@earshot/kit';
import { figuresOf } from '../repositories/figures';
import * as repo from '../repositories/saas';

/** Active: signed in within this many days. */
const ACTIVE_DAYS = 30;
/** The monthly figures: this month and the eleven before. */
const MONTHS = 12;
const TOP = 10;

const monthOf = (date: Date) => date.toISOString().slice(0, 7);

/**
 * The platform at a glance for its administrator (README "Platform overview"): companies
 * by status, members and active members, storage against each company's limit, and credits and
 * transcription per company and month, from this service's own data and read models and, for the
 * credits and transcription, the billing service's ledger.
 */
export class SaasService {
  private readonly billing: BillingPort;

  constructor(private readonly ctx: ServiceContext) {
    this.billing = processBilling(ctx.database, ctx.config);
  }

  async overview(now = new Date()): Promise<SaasDto> {
    const db = this.ctx.db;
    const since = new Date(now.getTime() - ACTIVE_DAYS * 86_400_000);
    const firstMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (MONTHS - 1), 1));
    const [companies, active, use] = await Promise.all([
      repo.companyList(db),
      repo.activeMembers(db, since),
      this.billing.monthlyUse(firstMonth),
    ]);
    const figures = await figuresOf(
      db,
      companies.map((c) => c.id),
    );
    const activeOf = new Map(active.map((row) => [row.companyId, row.active]));
    const monthly = use
      .map((row) => ({
        month: row.month,
        companyId: row.companyId,
        transcriptionSeconds: row.transcriptionSeconds,
        credits: row.credits,
      }))
      .sort((a, b) => a.month.localeCompare(b.month) || a.companyId.localeCompare(b.companyId));
    const thisMonth = new Map(monthly.filter((m) => m.month === monthOf(now)).map((m) => [m.companyId, m]));
    const rows = companies.map((c) => ({
      companyId: c.id,
      name: c.name,
      status: c.status,
      users: figures.get(c.id)?.userCount ?? 0,
      activeUsers: activeOf.get(c.id) ?? 0,
      storageBytes: figures.get(c.id)?.storageUsed ?? 0,
      // The company's maxStorage is in bytes already (spec: "max storage (bytes)").
      maxStorageBytes: c.maxStorage,
      transcriptionSeconds: thisMonth.get(c.id)?.transcriptionSeconds ?? 0,
      credits: thisMonth.get(c.id)?.credits ?? 0,
    }));
    const statuses = [...rows.reduce((m, r) => m.set(r.status, (m.get(r.status) ?? 0) + 1), new Map<string, number>())]
      .map(([status, count]) => ({ status, count }))
      .sort((a, b) => a.status.localeCompare(b.status));
    const top = rows
      .filter((r) => r.credits > 0 || r.transcriptionSeconds > 0)
      .sort(
        (a, b) =>
          b.credits - a.credits || b.transcriptionSeconds - a.transcriptionSeconds || a.name.localeCompare(b.name),
      )
      .slice(0, TOP)
      .map(({ companyId, name, credits, transcriptionSeconds }) => ({
        companyId,
        name,
        credits,
        transcriptionSeconds,
      }));
    return {
      statuses,
      activeUsers: rows.reduce((n, r) => n + r.activeUsers, 0),
      companies: rows,
      monthly: monthly.filter((m) => m.credits !== 0 || m.transcriptionSeconds !== 0),
      top,
    };
  }
}

/** A person signed in (user.signed_in): the newest sign-in is kept, an older event arriving late changes nothing. */
export async function applySignedIn(tx: Db, event: EventOf<'user.signed_in'>): Promise<void> {
  await repo.recordSignIn(tx, event.data.id, new Date(event.occurredAt));
}
