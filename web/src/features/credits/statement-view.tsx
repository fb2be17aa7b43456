import { useMemo, type ReactElement } from 'react';
import type { StatementDto } from '@earshot/contracts';
import { useFeatureTranslation } from '../../i18n/feature';
import { formatCredits, formatMoney } from '../../lib/credits-format';
import { catalogue } from './i18n';

const th = 'py-2 pr-3 text-left text-xs font-semibold tracking-wide text-gray-600 uppercase dark:text-gray-400';
const thNum = 'py-2 pl-3 text-right text-xs font-semibold tracking-wide text-gray-600 uppercase dark:text-gray-400';
const num = 'py-2 pl-3 text-right whitespace-nowrap tabular-nums';
// On a phone the quantity and unit price go under the unit, so the credits stay in view.
const wide = 'hidden sm:table-cell';

/** The statement itself (what prints): balances, then the charges by feature, model, unit and unit price. */
export function StatementView({ statement }: { statement: StatementDto }): ReactElement {
  const { t, i18n } = useFeatureTranslation(catalogue);
  const credits = (value: number) => formatCredits(value, i18n.language);
  // Quantities and unit prices have up to four decimals, like credits; a line without them shows a dash.
  const figure = (value: number | null) => (value === null ? '—' : formatCredits(value, i18n.language));
  const money = (value: number) => formatMoney(value, statement.creditRate, statement.currency, i18n.language);
  const monthName = useMemo(
    () =>
      new Intl.DateTimeFormat(i18n.language, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
        new Date(`${statement.month}-01T00:00:00Z`),
      ),
    [statement.month, i18n.language],
  );
  const lines: Array<[key: string, label: string, value: number, strong?: boolean]> = [
    ['opening', t('statement.opening'), statement.opening],
    ['grants', t('statement.grants'), statement.grants],
    ['adjustments', t('statement.adjustments'), statement.adjustments],
    // Charges take away; 0 stays 0 (not -0).
    ['total-charges', t('statement.totalCharges'), statement.totalCharges === 0 ? 0 : -statement.totalCharges],
    ['closing', t('statement.closing'), statement.closing, true],
  ];
  return (
    <article
      id="statement"
      className="rounded-2xl border border-gray-200 bg-white p-4 sm:p-8 dark:border-gray-800 dark:bg-gray-900"
      data-testid="statement"
    >
      <header className="mb-6 flex flex-wrap items-baseline justify-between gap-2">
        <div>
          <h2 className="text-xl font-semibold">{t('statement.title', { month: monthName })}</h2>
          <p className="text-gray-700 dark:text-gray-300">{t('statement.for', { company: statement.companyName })}</p>
        </div>
        <p className="text-sm text-gray-600 dark:text-gray-400">{t('statement.rate', { value: money(1) })}</p>
      </header>
      <table className="mb-8 w-full text-sm" data-testid="statement-summary">
        <thead className="sr-only">
          <tr>
            <th scope="col">{t('statement.month')}</th>
            <th scope="col">{t('statement.amount')}</th>
            <th scope="col">{t('statement.money', { currency: statement.currency })}</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-gray-100 dark:divide-gray-800">
          {lines.map(([key, label, value, strong]) => (
            <tr key={key} className={strong ? 'font-semibold' : undefined} data-testid={`statement-${key}`}>
              <th scope="row" className="py-2 pr-3 text-left font-[inherit]">
                {label}
              </th>
              <td className={num}>{credits(value)}</td>
              <td className={`${num} text-gray-600 dark:text-gray-400`}>{money(value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3 className="mb-2 font-semibold">{t('statement.charges')}</h3>
      {statement.charges.length === 0 ? (
        <p className="text-sm text-gray-600 dark:text-gray-400">{t('statement.noCharges')}</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-sm" data-testid="statement-charges">
            <thead className="border-b border-gray-200 dark:border-gray-800">
              <tr>
                <th scope="col" className={th}>
                  {t('statement.feature')}
                </th>
                <th scope="col" className={th}>
                  {t('statement.model')}
                </th>
                <th scope="col" className={th}>
                  {t('statement.unit')}
                </th>
                <th scope="col" className={`${thNum} ${wide}`}>
                  {t('statement.quantity')}
                </th>
                <th scope="col" className={`${thNum} ${wide}`}>
                  {t('statement.unitPrice')}
                </th>
                <th scope="col" className={thNum}>
                  {t('statement.amount')}
                </th>
                <th scope="col" className={thNum}>
                  {t('statement.money', { currency: statement.currency })}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-gray-100 dark:divide-gray-800">
              {statement.charges.map((charge) => (
                <tr
                  key={`${charge.feature}:${charge.model}:${charge.unit}:${charge.unitPrice}`}
                  data-testid="statement-charge"
                >
                  <td className="py-2 pr-3">{t(`reports.features.${charge.feature}`)}</td>
                  <td className="py-2 pr-3 break-all">{charge.model}</td>
                  <td className="py-2 pr-3">
                    {charge.unit ? t(`reports.units.${charge.unit}`) : '—'}
                    <span className="block text-xs text-gray-600 tabular-nums sm:hidden dark:text-gray-400">
                      {figure(charge.quantity)} × {figure(charge.unitPrice)}
                    </span>
                  </td>
                  <td className={`${num} ${wide}`}>{figure(charge.quantity)}</td>
                  <td className={`${num} ${wide}`}>{figure(charge.unitPrice)}</td>
                  <td className={num}>{credits(charge.credits)}</td>
                  <td className={`${num} text-gray-600 dark:text-gray-400`}>{money(charge.credits)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="mt-3 text-xs text-gray-600 dark:text-gray-400" data-testid="statement-rounding">
            {t('statement.rounding')}
          </p>
        </div>
      )}
    </article>
  );
}
