// /invoice: the monthly statement of a company from its ledger. An ADMIN sees their company's, a
// HOST_ADMIN picks the company; both pick the month (?companyId=…&month=YYYY-MM). The route guard
// keeps everyone else out (lib/roles.ts). Printing gives the statement alone (statement-print.css);
// the PDF comes from the server.
import type { ReactElement } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Icon } from '../../components/icons';
import { buttonClass, inputClass } from '../../components/form-parts';
import { PageHeading } from '../../components/page-heading';
import { PageSpinner } from '../../components/spinner';
import { Alert } from '../../components/text-field';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { isMonth, monthOf } from '../../lib/credits-format';
import { withParams } from '../../lib/search-params';
import { catalogue } from './i18n';
import { CompanyPicker, useReportScope } from './report-scope';
import { statementPdfUrl, useStatementQuery } from './reports-api';
import { StatementView } from './statement-view';
import './statement-print.css';

export default function InvoicePage(): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const scope = useReportScope();
  const [search, setSearch] = useSearchParams();
  const asked = search.get('month') ?? '';
  const month = isMonth(asked) ? asked : monthOf(new Date());
  const companyId = scope.kind === 'self' ? null : scope.companyId;
  const statement = useStatementQuery({ companyId: companyId ?? '', month }, { skip: !companyId });

  return (
    <div>
      <div className="print:hidden">
        <PageHeading>{t('pages.invoice')}</PageHeading>
        <p className="mb-6 max-w-3xl text-sm text-gray-600 dark:text-gray-400">{t('statement.intro')}</p>
        <div className="mb-6 flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-end">
          {scope.kind === 'host' ? <CompanyPicker companyId={companyId} /> : null}
          <label>
            <span className="mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-300">
              {t('statement.month')}
            </span>
            <input
              type="month"
              className={`${inputClass} sm:w-48`}
              value={month}
              max={monthOf(new Date())}
              onChange={(event) =>
                setSearch(withParams(search, { month: isMonth(event.target.value) ? event.target.value : null }))
              }
              data-testid="statement-month"
            />
          </label>
          {companyId && statement.data ? (
            <div className="flex gap-2 sm:ml-auto">
              <button type="button" className={buttonClass.secondary} onClick={() => window.print()}>
                {t('statement.print')}
              </button>
              <a
                href={statementPdfUrl(companyId, month)}
                download
                className={`${buttonClass.primary} inline-flex items-center gap-2`}
                data-testid="statement-pdf"
              >
                <Icon name="download" className="size-4" />
                {t('statement.pdf')}
              </a>
            </div>
          ) : null}
        </div>
      </div>
      {!companyId ? (
        <p className="text-sm text-gray-600 dark:text-gray-400">{t('reports.pickCompanyFirst')}</p>
      ) : statement.error ? (
        <Alert>{errorMessage(statement.error) ?? t('reports.loadFailed')}</Alert>
      ) : !statement.data ? (
        <PageSpinner label={t('common.loading')} />
      ) : (
        <StatementView statement={statement.data} />
      )}
    </div>
  );
}
