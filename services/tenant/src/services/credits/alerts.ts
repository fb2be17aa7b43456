import { CREDIT_ALERT_THRESHOLDS, SYSTEM_ACTOR } from '@earshot/contracts';
import type { Db, NewEvent } from '@earshot/kit';
import type { CreditAccountRow } from '../../db/schema';
import * as credits from '../../repositories/credits';
import * as mailRepo from '../../repositories/mail';
import { insertNotifications } from '../../repositories/notifications';
import type { MailService } from '../mail/mail';
import { alertText, type AlertAudience } from './alert-texts';
import { fromUnits, toUnits } from './amounts';
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

/** Where an ADMIN reads the month's charges. */
const STATEMENT_PATH = '/invoice';

const reached = (spent: number, limit: number, threshold: number) => toUnits(spent) * 100 >= toUnits(limit) * threshold;

/**
 * Budget and cap alerts: after a charge, each threshold (80 %, 100 %) that this month's spend has
 * reached — of the company's monthly budget, or of the person's monthly cap — is alerted once per
 * month (credit_alerts' key): an in-app notification for the company's ADMINs (and the person, for
 * their cap), a mail to each through the outbox, and credits.threshold_reached. "Reached" rather
 * than "crossed": a budget set when the month's spend is already past it alerts at the next charge.
 */
export class CreditAlerts {
  constructor(private readonly mail: MailService) {}

  /**
   * After charges (one event's or a batch's: spend only grows, so what the batch reached is what
   * some charge in it reached). `caps`: the charged people's monthly caps, read before the charges,
   * outside the account's lock.
   */
  async afterCharge(tx: Db, emit: Emit, companyId: string, posted: Posted, caps: ReadonlyMap<string, number>): Promise<void> {
    const { spend, account } = posted;
    if (!spend) return;
    const budget = limitOf(account.monthlyBudget);
    for (const threshold of CREDIT_ALERT_THRESHOLDS) {
      if (budget !== null && reached(spend.company, budget, threshold)) {
        await this.alert(tx, emit, { companyId, scope: 'company', userId: null, threshold, month: spend.month, spent: spend.company, limit: budget });
      }
    }
    for (const [userId, spent] of spend.people) {
      const cap = caps.get(userId);
      if (cap === undefined) continue;
      for (const threshold of CREDIT_ALERT_THRESHOLDS) {
        if (reached(spent, cap, threshold)) await this.alert(tx, emit, { companyId, scope: 'user', userId, threshold, month: spend.month, spent, limit: cap });
      }
    }
  }

  private async alert(tx: Db, emit: Emit, alert: Threshold): Promise<void> {
    const first = await credits.recordAlert(tx, { companyId: alert.companyId, userId: alert.userId ?? credits.COMPANY_SPEND, month: alert.month, threshold: alert.threshold });
    if (!first) return;
    const { companyId, scope, userId, threshold, month, spent, limit } = alert;
    emit({ type: 'credits.threshold_reached', companyId, actor: SYSTEM_ACTOR, data: { scope, userId, threshold, month, spent, limit } });

    const company = await mailRepo.companyBranding(tx, companyId);
    const person = userId ? await mailRepo.findRecipient(tx, userId) : undefined;
    const name = person ? `${person.firstName} ${person.lastName}`.trim() : '';
    const audiences = new Map<string, AlertAudience>((await credits.companyAdmins(tx, companyId)).map((admin) => [admin, scope === 'company' ? 'budget' : 'cap']));
    if (userId) audiences.set(userId, 'ownCap');
    const values = { t: threshold, spent, limit, month, company: company?.name ?? '', name };
    const link = (audience: AlertAudience) => (audience === 'ownCap' ? null : STATEMENT_PATH);
    await insertNotifications(tx, [...audiences].map(([recipient, audience]) => ({
      userId: recipient, companyId, kind: scope === 'company' ? 'credits_threshold' as const : 'cap_threshold' as const,
      ...alertText(company?.language ?? 'en', audience, values), link: link(audience),
    })));

    const remaining = fromUnits(Math.max(0, toUnits(limit) - toUnits(spent)));
    const alertLevel = fromUnits(Math.round((toUnits(limit) * (100 - threshold)) / 100));
    for (const [recipient, audience] of audiences) {
      const to = recipient === userId ? person : await mailRepo.findRecipient(tx, recipient);
      if (!to) continue;
      const path = link(audience) ?? '/';
      await this.mail.queue(tx, {
        companyId, type: threshold >= 100 ? 'budget_reached' : 'credits_low', to: to.email,
        variables: {
          'user.firstName': to.firstName, 'user.lastName': to.lastName, 'user.email': to.email,
          'credits.balance': remaining, 'credits.threshold': alertLevel, 'credits.budget': limit,
          link: `${this.mail.linkBase(company?.domain ?? null)}${path}`,
        },
      });
    }
  }
}

const limitOf = (value: CreditAccountRow['monthlyBudget']): number | null => (value === null ? null : Number(value));
