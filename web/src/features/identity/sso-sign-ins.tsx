// The people who signed in through the company's provider, most recent first.
import type { ReactElement } from 'react';
import type { SsoSignInDto } from '@earshot/contracts';
import { DataTable, type DataColumn } from '../../components/data-table';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { formatDateTime } from '../../lib/format-time';
import { useSsoSignInsQuery } from './identity-api';
import { catalogue } from './i18n';

const NONE: SsoSignInDto[] = [];

export function SsoSignIns({ companyId }: { companyId: string }): ReactElement {
  const { t, i18n } = useFeatureTranslation(catalogue);
  const list = useSsoSignInsQuery(companyId);
  const columns: Array<DataColumn<SsoSignInDto>> = [
    {
      id: 'person',
      header: t('sso.person'),
      cell: (row) => (
        <span className="block">
          {row.name}
          <span className="block text-xs text-gray-500 dark:text-gray-400">{row.email}</span>
        </span>
      ),
    },
    { id: 'role', header: t('sso.role'), cell: (row) => row.role },
    {
      id: 'subject',
      header: t('sso.subject'),
      cell: (row) => <span className="font-mono text-xs">{row.subject}</span>,
    },
    {
      id: 'last',
      header: t('sso.lastSignIn'),
      cell: (row) => (row.lastSignInAt ? formatDateTime(row.lastSignInAt, i18n.language) : t('sso.never')),
    },
  ];
  return (
    <section aria-labelledby="sso-sign-ins" className="flex flex-col gap-3">
      <h2 id="sso-sign-ins" className="text-lg font-semibold text-gray-900 dark:text-white">
        {t('sso.signIns')}
      </h2>
      <DataTable
        label={t('sso.signIns')}
        columns={columns}
        rows={list.data ?? NONE}
        rowId={(row) => row.userId}
        loading={list.isFetching}
        error={list.error ? (errorMessage(list.error) ?? t('sso.loadFailed')) : null}
        onRetry={() => void list.refetch()}
        emptyText={t('sso.signInsEmpty')}
        testId="sso-sign-ins"
      />
    </section>
  );
}
