import type { StatementDto, StatementQuery } from '@earshot/contracts';
import { badRequest, type Identity, type ServiceContext } from '@earshot/kit';
import { currency } from '../repositories/pricing';
import * as repo from '../repositories/usage';
import { assertVisible, loadCompany } from './company-guards';
import { fromUnits, monthOf, toUnits } from './credits/amounts';
import { renderStatementPdf } from './statement-pdf';
import { decimalOrNull, monthBounds } from './usage';

/** numeric(18,4) text → exact ten-thousandths. */
const units = (decimal: string) => toUnits(Number(decimal));

/**
 * The monthly statement of a company, from its ledger: the balance at the start of the month, what
 * was granted, adjusted and charged in it (charges by feature and model), and the balance at its
 * end. Months are calendar months in UTC.
 *
 * Balances here are booked balances: grants, adjustments and charges. Reservations (a queued
 * transcription's estimate) are holds, not spending: they are settled as a charge or released
 * within days, so the statement leaves them out and its figures always add up
 * (opening + grants + adjustments − charges = closing, and each closing is the next opening). At
 * the end of a month with work still queued, the spendable balance on the credits page is lower
 * than the closing balance by what that work holds.
 */
export class StatementService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async statement(identity: Identity, companyId: string, query: StatementQuery): Promise<StatementDto> {
    return (await this.compose(identity, companyId, query)).statement;
  }

  /** The same statement as a PDF file, made here (no browser, no binary). */
  async pdf(identity: Identity, companyId: string, query: StatementQuery): Promise<{ filename: string; body: Buffer }> {
    const { statement, code } = await this.compose(identity, companyId, query);
    return {
      filename: `statement-${code.toLowerCase()}-${statement.month}.pdf`,
      body: await renderStatementPdf(statement),
    };
  }

  private async compose(
    identity: Identity,
    companyId: string,
    query: StatementQuery,
  ): Promise<{ statement: StatementDto; code: string }> {
    assertVisible(identity, companyId);
    const company = await loadCompany(this.ctx.db, companyId);
    const current = monthOf(this.now());
    const month = query.month ?? current;
    if (month > current)
      throw badRequest('Invalid query.month: must not be in the future', [
        { field: 'query.month', message: 'must not be in the future' },
      ]);
    const { from, to } = monthBounds(month);
    const db = this.ctx.db;
    const [opening, movements, charges, money] = await Promise.all([
      repo.bookedBalanceBefore(db, companyId, from),
      repo.movementsIn(db, companyId, from, to),
      repo.chargesByFeatureAndModel(db, companyId, from, to),
      currency(db),
    ]);
    const lines = charges.flatMap((c) =>
      c.feature === null
        ? []
        : [
            {
              feature: c.feature,
              model: c.model,
              unit: c.unit,
              quantity: decimalOrNull(c.quantity),
              unitPrice: decimalOrNull(c.unitPrice),
              credits: Number(c.credits),
            },
          ],
    );
    const total = charges.reduce((sum, c) => sum + units(c.credits), 0);
    const statement: StatementDto = {
      companyId,
      companyName: company.name,
      month,
      ...money,
      opening: Number(opening),
      grants: Number(movements.grants),
      adjustments: Number(movements.adjustments),
      charges: lines,
      totalCharges: fromUnits(total),
      closing: fromUnits(units(opening) + units(movements.grants) + units(movements.adjustments) - total),
    };
    return { statement, code: company.code };
  }
}
