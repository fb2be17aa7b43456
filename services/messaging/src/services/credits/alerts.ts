import { CREDIT_DECIMALS, type EventOf } from '@earshot/contracts';
import type { Db } from '@earshot/kit';
import type { PersonRow } from '../../db/schema';
import * as directory from '../../repositories/directory';
import { insertNotifications } from '../../repositories/notifications';
import type { MailService } from '../mail/mail';
import { personVariables } from '../mail/notifications';
import { alertText, type AlertAudience } from './alert-texts';

/** Where an ADMIN reads the month's charges. */
const STATEMENT_PATH = '/invoice';

/** Amounts in whole ten-thousandths, as the tenant's ledger counts them (no floating-point drift). */
const SCALE = 10 ** CREDIT_DECIMALS;
const units = (credits: number) => Math.round(credits * SCALE);

/**
 * credits.threshold_reached (the tenant service records each threshold once per month): the
 * company's ADMINs are told — of the company's budget, or of a person's cap — and the person of
 * their own cap, in the app and by mail, in the company's language.
 */
export class CreditAlertNotices {
  constructor(private readonly mail: MailService) {}

  async apply(tx: Db, event: EventOf<'credits.threshold_reached'>): Promise<void> {
    const companyId = event.companyId;
    if (!companyId) return;
    const { scope, userId, threshold, month, spent, limit } = event.data;
    const company = await directory.findCompany(tx, companyId);
    const person = userId ? await directory.findPerson(tx, userId) : undefined;
    const audiences = new Map<string, { to: PersonRow; audience: AlertAudience }>(
      (await directory.peopleWithRole(tx, companyId, ['ADMIN'])).map((admin) => [
        admin.userId,
        { to: admin, audience: scope === 'company' ? 'budget' : 'cap' },
      ]),
    );
    if (person) audiences.set(person.userId, { to: person, audience: 'ownCap' });
    const name = person ? `${person.firstName} ${person.lastName}`.trim() : '';
    const values = { t: threshold, spent, limit, month, company: company?.name ?? '', name };
    const link = (audience: AlertAudience) => (audience === 'ownCap' ? null : STATEMENT_PATH);
    const remaining = Math.max(0, units(limit) - units(spent)) / SCALE;
    const alertLevel = Math.round((units(limit) * (100 - threshold)) / 100) / SCALE;
    // Each person's mail first: their notification carries it, so the inbox shows the alert once.
    const mailIds = new Map<string, string>();
    for (const { to, audience } of audiences.values()) {
      const mail = await this.mail.queue(tx, {
        companyId,
        type: threshold >= 100 ? 'budget_reached' : 'credits_low',
        to: to.email,
        userId: to.userId,
        path: link(audience) ?? '/',
        variables: {
          ...personVariables(to),
          'credits.balance': remaining,
          'credits.threshold': alertLevel,
          'credits.budget': limit,
        },
      });
      mailIds.set(to.userId, mail.id);
    }
    await insertNotifications(
      tx,
      [...audiences.values()].map(({ to, audience }) => ({
        userId: to.userId,
        companyId,
        kind: scope === 'company' ? ('credits_threshold' as const) : ('cap_threshold' as const),
        ...alertText(company?.language ?? 'en', audience, values),
        link: link(audience),
        mailId: mailIds.get(to.userId) ?? null,
      })),
    );
  }
}
