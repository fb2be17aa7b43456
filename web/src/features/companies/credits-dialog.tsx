// A company's credits (HOST_ADMIN): balance with what is reserved, the monthly budget and grant,
// a grant or adjustment with its reason, and the ledger.
import { useState, type ReactElement } from 'react';
import { buttonClass, FormDialog } from '../../components/form-parts';
import { Alert } from '../../components/text-field';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { formatCredits } from '../../lib/credits-format';
import { useCompanyCreditsQuery } from './companies-api';
import { CreditGrantForm } from './credit-grant-form';
import { CreditSettingsForm } from './credit-settings-form';
import { catalogue as creditsCatalogue } from './credits-i18n';
import { LedgerTable } from './ledger-table';
import type { Company, Notify } from './model';

const LEDGER_PAGE_SIZE = 10;

export function CreditsDialog({
  company,
  onClose,
  notify,
}: {
  company: Company;
  onClose: () => void;
  notify: Notify;
}): ReactElement {
  const { t, i18n } = useFeatureTranslation(creditsCatalogue);
  const [page, setPage] = useState(1);
  const credits = useCompanyCreditsQuery({ id: company._id, page, pageSize: LEDGER_PAGE_SIZE });
  const data = credits.data;
  const amount = (value: number | null | undefined) =>
    value === null || value === undefined ? t('credits.none') : formatCredits(value, i18n.language);
  return (
    <FormDialog title={t('credits.title', { name: company.name })} onClose={onClose} size="lg" testId="credits-dialog">
      {credits.error ? (
        <div className="mb-4">
          <Alert>{errorMessage(credits.error) ?? t('credits.loadFailed')}</Alert>
        </div>
      ) : null}
      <dl className="mb-6 grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="credits-summary">
        <Figure
          label={t('credits.balance')}
          value={data ? amount(data.balance) : '…'}
          testId="credits-balance"
          strong
        />
        <Figure
          label={t('credits.reserved')}
          value={data ? amount(data.reserved) : '…'}
          hint={t('credits.reservedHint')}
        />
        <Figure label={t('credits.monthlyBudget')} value={data ? amount(data.monthlyBudget) : '…'} />
        <Figure label={t('credits.monthlyGrant')} value={data ? amount(data.monthlyGrant) : '…'} />
      </dl>
      <div className="mb-6 grid gap-6 md:grid-cols-2">
        <CreditGrantForm companyId={company._id} notify={notify} />
        {data ? (
          <CreditSettingsForm
            companyId={company._id}
            monthlyBudget={data.monthlyBudget}
            monthlyGrant={data.monthlyGrant}
            notify={notify}
          />
        ) : null}
      </div>
      <h3 className="mb-2 font-semibold">{t('credits.ledger.title')}</h3>
      <LedgerTable ledger={data?.ledger} loading={credits.isFetching} onPage={setPage} />
      <div className="mt-4 flex justify-end">
        <button type="button" className={buttonClass.secondary} onClick={onClose}>
          {t('credits.close')}
        </button>
      </div>
    </FormDialog>
  );
}

function Figure({
  label,
  value,
  hint,
  testId,
  strong = false,
}: {
  label: string;
  value: string;
  hint?: string;
  testId?: string;
  strong?: boolean;
}): ReactElement {
  return (
    <div className="rounded-xl border border-gray-200 p-3 dark:border-gray-800">
      <dt className="text-xs text-gray-600 dark:text-gray-400">{label}</dt>
      <dd className={`tabular-nums ${strong ? 'text-xl font-semibold' : 'text-lg'}`} data-testid={testId} title={hint}>
        {value}
      </dd>
    </div>
  );
}
