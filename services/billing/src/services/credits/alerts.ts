import { CREDIT_ALERT_THRESHOLDS, SYSTEM_ACTOR } from '@earshot/contracts';
import type { Db, NewEvent } from '@earshot/kit';
import type { CreditAccountRow } from '../../db/schema';
import * as credits from '../../repositories/credits';
import { toUnits } from './amounts';
import type { Posted } from './ledger';

type Emit = (event: NewEvent) => void;

interface Threshold {
  companyId: string;
  scope: 'company' | 'user';
  userId: string | null;
  threshold: number;
  month: string;
  spent: number;
  limit: number;
}

const reached = (spent: number, limit: number, threshold: number) => toUnits(spent) * 100 >= toUnits(limit) * threshold;

/**
 * Budget and cap alerts: after a charge, each threshold (80 %, 100 %) that this month's spend has
 * reached — of the company's monthly budget, or of the person's monthly cap — is alerted once per
 * month (credit_alerts' key) with credits.threshold_reached; the messaging service tells the
 * company's ADMINs (and the person, for their cap) in the app and by mail. "Reached" rather than
 * "crossed": a budget set when the month's spend is already past it alerts at the next charge.
 */
export class CreditAlerts {
  /**
   * After charges (one event's or a batch's: spend only grows, so what the batch reached is what
   * some charge in it reached). `caps`: the charged people's monthly caps, read before the charges,
   * outside the account's lock.
   */
  async afterCharge(
    tx: Db,
    emit: Emit,
    companyId: string,
    posted: Posted,
    caps: ReadonlyMap<string, number>,
  ): Promise<void> {
    const { spend, account } = posted;
    if (!spend) return;
    const budget = limitOf(account.monthlyBudget);
    for (const threshold of CREDIT_ALERT_THRESHOLDS) {
      if (budget !== null && reached(spend.company, budget, threshold)) {
        await this.alert(tx, emit, {
          companyId,
          scope: 'company',
          userId: null,
          threshold,
          month: spend.month,
          spent: spend.company,
          limit: budget,
        });
      }
    }
    for (const [userId, spent] of spend.people) {
      const cap = caps.get(userId);
      if (cap === undefined) continue;
      for (const threshold of CREDIT_ALERT_THRESHOLDS) {
        if (reached(spent, cap, threshold))
          await this.alert(tx, emit, {
            companyId,
            scope: 'user',
            userId,
            threshold,
            month: spend.month,
            spent,
            limit: cap,
          });
      }
    }
  }

  private async alert(tx: Db, emit: Emit, alert: Threshold): Promise<void> {
    const first = await credits.recordAlert(tx, {
      companyId: alert.companyId,
      userId: alert.userId ?? credits.COMPANY_SPEND,
      month: alert.month,
      threshold: alert.threshold,
    });
    if (!first) return;
    const { companyId, scope, userId, threshold, month, spent, limit } = alert;
    emit({
      type: 'credits.threshold_reached',
      companyId,
      actor: SYSTEM_ACTOR,
      data: { scope, userId, threshold, month, spent, limit },
    });
  }
}

const limitOf = (value: CreditAccountRow['monthlyBudget']): number | null => (value === null ? null : Number(value));
