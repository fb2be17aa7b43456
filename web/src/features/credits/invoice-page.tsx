// /invoice: the monthly statement of a company from its ledger. An ADMIN sees their company's, a
// HOST_ADMIN picks the company; both pick the month (?companyId=…&month=YYYY-MM). Printing gives
// the statement alone (statement-print.css); the PDF comes from the server.
import type { ReactElement } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Icon } from '../../components/icons';
import { buttonClass, inputClass } from '../../components/form-parts';
import { PageHeading } from '../../components/page-heading';
import { PageSpinner } from '../../components/spinner';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { monthOf } from '../../lib/credits-format';
import { withParams } from '../../lib/search-params';
import { catalogue } from './i18n';
import { CompanyPicker, useReportScope } from './report-scope';
import { statementPdfUrl, useStatementQuery } from './reports-api';
import { StatementView } from './statement-view';
import './statement-print.css';

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

export default function InvoicePage(): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const scope = useReportScope();
  const [search, setSearch] = useSearchParams();
  const month = MONTH.test(search.get('month') ?? '') ? search.get('month')! : monthOf(new Date());
  const companyId = scope.kind === 'self' ? null : scope.companyId;
  const statement = useStatementQuery({ companyId: companyId ?? '', month }, { skip: !companyId });

  if (scope.kind === 'self') {
    return (
      <div>
        <PageHeading>{t('pages.invoice')}</PageHeading>
        <p className="max-w-2xl rounded-xl border border-gray-200 bg-white p-4 text-gray-700 dark:border-gray-800 dark:bg-gray-900 dark:text-gray-300" data-testid="statement-admins-only">{t('statement.adminsOnly')}</p>
      </div>
    );
  }
  return (
    <div>
      <div className="print:hidden">
        <PageHeading>{t('pages.invoice')}</PageHeading>
        <p className="mb-6 max-w-3xl text-sm text-gray-600 dark:text-gray-400">{t('statement.intro')}</p>
        <div className="mb-6 flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-end">
          {scope.kind === 'host' ? <CompanyPicker companyId={companyId} /> : null}
          <label>
            <span className="mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-300">{t('statement.month')}</span>
            <input type="month" className={`${inputClass} sm:w-48`} value={month} max={monthOf(new Date())} onChange={(event) => setSearch(withParams(search, { month: MONTH.test(event.target.value) ? event.target.value : null }))} data-testid="statement-month" />
          </label>
          {companyId && statement.data ? (
            <div className="flex gap-2 sm:ml-auto">
              <button type="button" className={buttonClass.secondary} onClick={() => window.print()}>{t('statement.print')}</button>
              <a href={statementPdfUrl(companyId, month)} download className={`${buttonClass.primary} inline-flex items-center gap-2`} data-testid="statement-pdf">
                <Icon name="download" className="size-4" />{t('statement.pdf')}
              </a>
            </div>
          ) : null}
        </div>
      </div>
      {!companyId ? <p className="text-sm text-gray-600 dark:text-gray-400">{t('reports.pickCompanyFirst')}</p>
        : statement.error ? <p role="alert" className="text-sm text-red-700 dark:text-red-300">{errorMessage(statement.error) ?? t('reports.loadFailed')}</p>
          : !statement.data ? <PageSpinner label={t('common.loading')} />
            : <StatementView statement={statement.data} />}
    </div>
  );
}
