import { useMemo, type ReactElement } from 'react';
import { DataTable, type DataColumn } from '../../components/data-table';
import { Pager } from '../../components/pager';
import { useFeatureTranslation } from '../../i18n/feature';
import type { CreditsDto, LedgerEntryDto } from '@earshot/contracts';
import { formatCredits } from '../../lib/credits-format';
import { catalogue as creditsCatalogue } from './credits-i18n';
import { formatDateTime } from '../../lib/format-time';

/** One page of the company's ledger, newest first (the server pages it). */
export function LedgerTable({
  ledger,
  loading,
  onPage,
}: {
  ledger: CreditsDto['ledger'] | undefined;
  loading: boolean;
  onPage: (page: number) => void;
}): ReactElement {
  const { t, i18n } = useFeatureTranslation(creditsCatalogue);
  const columns = useMemo<Array<DataColumn<LedgerEntryDto>>>(
    () => [
      {
        id: 'when',
        header: t('credits.ledger.when'),
        cell: (e) => (
          <time dateTime={e.createdAt} className="whitespace-nowrap">
            {formatDateTime(e.createdAt, i18n.language)}
          </time>
        ),
        canHide: false,
      },
      { id: 'kind', header: t('credits.ledger.kind'), cell: (e) => t(`credits.ledger.kinds.${e.kind}`) },
      {
        id: 'amount',
        header: t('credits.ledger.amount'),
        canHide: false,
        cell: (e) => (
          <span
            className={`whitespace-nowrap tabular-nums ${e.amount < 0 ? 'text-red-700 dark:text-red-300' : 'text-green-800 dark:text-green-300'}`}
          >
            {e.amount > 0 ? '+' : ''}
            {formatCredits(e.amount, i18n.language)}
          </span>
        ),
      },
      {
        id: 'detail',
        header: t('credits.ledger.detail'),
        // A charge names its unit, quantity and unit price: two lines of one reply read as input and output, not twice the same.
        cell: (e) =>
          [
            e.reason,
            e.feature ? t(`credits.features.${e.feature}`) : null,
            e.model,
            e.unit && e.quantity !== null && e.unitPrice !== null
              ? t('credits.ledger.line', {
                  quantity: formatCredits(e.quantity, i18n.language),
                  unit: t(`credits.ledger.units.${e.unit}`),
                  price: formatCredits(e.unitPrice, i18n.language),
                })
              : null,
          ]
            .filter(Boolean)
            .join(' · ') || '—',
      },
    ],
    [t, i18n.language],
  );
  const page = ledger?.page ?? 1;
  const totalPages = Math.max(1, ledger?.totalPages ?? 1);
  return (
    <DataTable
      label={t('credits.ledger.title')}
      testId="ledger-table"
      columns={columns}
      rows={ledger?.items ?? []}
      rowId={(entry) => entry._id}
      loading={loading}
      emptyText={t('credits.ledger.empty')}
      footer={
        totalPages > 1 ? (
          <Pager
            page={page}
            totalPages={totalPages}
            onPage={onPage}
            info={t('credits.ledger.pageOf', { page, total: totalPages })}
            previous={t('credits.ledger.previous')}
            next={t('credits.ledger.next')}
          />
        ) : undefined
      }
    />
  );
}
