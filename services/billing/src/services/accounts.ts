import { SYSTEM_ACTOR, type Actor, type EventOf } from '@earshot/contracts';
import type { BillingPort, Db, MonthlyUse, NewEvent, OpenAccountRequest, ServiceContext } from '@earshot/kit';
import * as credits from '../repositories/credits';
import * as directory from '../repositories/directory';
import { monthlyUse } from '../repositories/usage';
import { toUnits } from './credits/amounts';
import { OPENING_CREDITS_REASON, type CreditsConfig } from './credits/config';
import { post } from './credits/ledger';
import { applyCompanyEvent } from './directory';

type Emit = (event: NewEvent) => void;
type BillingContext = ServiceContext<ServiceContext['config'] & CreditsConfig>;

/**
 * Opens a company's account with COMPANY_OPENING_CREDITS granted, once: the tenant's call while it
 * creates the company and the company.created event that follows both come here, and whichever
 * is first opens it (the account row's key decides); the other changes nothing.
 */
async function openAccount(tx: Db, emit: Emit, companyId: string, actor: Actor, opening: number): Promise<void> {
  if (!(await credits.createAccount(tx, companyId)) || opening <= 0) return;
  const posted = await post(tx, companyId, [
    { kind: 'grant', units: toUnits(opening), reason: OPENING_CREDITS_REASON },
  ]);
  emit({
    type: 'credits.granted',
    companyId,
    actor,
    data: {
      entryId: posted!.entries[0]!.id,
      amount: opening,
      reason: OPENING_CREDITS_REASON,
      monthly: false,
      balance: opening,
    },
  });
}

/** What the tenant service asks of billing (the kit's BillingPort), answered in this process or over the internal routes. */
export class AccountService implements BillingPort {
  constructor(private readonly ctx: BillingContext) {}

  async openAccount({ company, actor }: OpenAccountRequest): Promise<void> {
    await this.ctx.transact(async (tx, emit) => {
      // The company as the tenant just created it, unless its own events got here first.
      if (!(await directory.findCompany(tx, company.id))) await directory.upsertCompany(tx, company);
      await openAccount(tx, emit, company.id, actor, this.ctx.config.COMPANY_OPENING_CREDITS);
    });
  }

  async balances(companyIds: readonly string[]): Promise<Map<string, number>> {
    return credits.balancesOf(this.ctx.db, companyIds);
  }

  async monthlyUse(from: Date): Promise<MonthlyUse[]> {
    return (await monthlyUse(this.ctx.db, from)).map((row) => ({
      companyId: row.companyId,
      month: row.month,
      credits: Number(row.credits),
      transcriptionSeconds: Number(row.seconds),
    }));
  }

  /**
   * company.created: the read model, and the account if the tenant's call did not open it (it
   * failed, or the company was created by a release that did not call).
   */
  async applyCreated(tx: Db, emit: Emit, event: EventOf<'company.created'>): Promise<void> {
    await applyCompanyEvent(tx, event);
    await openAccount(tx, emit, event.data.id, event.actor ?? SYSTEM_ACTOR, this.ctx.config.COMPANY_OPENING_CREDITS);
  }
}
