// /pricing (HOST_ADMIN): what each model and transcription engine costs in credits now, a new
// price (from now or a later date), each one's history, and the display currency.
import { useCallback, useMemo, useState, type ReactElement } from 'react';
import type { PriceUnit } from '@earshot/contracts/constants';
import { DataTable, type DataColumn } from '../../components/data-table';
import { buttonClass, FormDialog } from '../../components/form-parts';
import { PageHeading } from '../../components/page-heading';
import { ToastRegion, useToasts } from '../../components/toast';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { usePricingQuery } from '../../entities/credits';
import { formatCredits } from '../../lib/credits-format';
import { catalogue } from './i18n';
import { pricesOf, subjectName, subjectsOf, UNITS_BY_PURPOSE, type PriceDto, type Subject } from './model';
import { PriceForm } from './price-form';
import { PriceHistory } from './price-history';
import { CurrencyForm } from './currency-form';
import { usePriceableModelsQuery } from './pricing-api';
import { formatDate } from '../../lib/format-time';

const NO_PRICES: PriceDto[] = [];

export default function PricingPage(): ReactElement {
  const { t, i18n } = useFeatureTranslation(catalogue);
  const pricing = usePricingQuery();
  const models = usePriceableModelsQuery();
  const [dialog, setDialog] = useState<{ kind: 'price' | 'history'; subject: Subject } | null>(null);
  const { toasts, show, dismiss } = useToasts();
  const notify = useCallback(
    (ok: boolean, title: string, detail?: string | null) => show({ kind: ok ? 'success' : 'error', title, detail }),
    [show],
  );

  // Engines are listed with the models, once those are known, so rows do not jump.
  const subjects = useMemo(() => (models.data ? subjectsOf(models.data) : []), [models.data]);
  const prices = pricing.data?.prices ?? NO_PRICES;

  const columns = useMemo<Array<DataColumn<Subject>>>(() => {
    const priceCell = (s: Subject) => {
      const mine = pricesOf(s, prices);
      return (
        <ul className="flex flex-col gap-1" data-testid="price-cell">
          {UNITS_BY_PURPOSE[s.purpose].map((unit: PriceUnit) => {
            const price = mine[unit];
            return (
              <li key={unit} className="whitespace-nowrap text-sm">
                <span className="text-gray-600 dark:text-gray-400">{t(`pricing.unitNames.${unit}`)}: </span>
                {price ? (
                  <>
                    <span className="font-medium tabular-nums">{formatCredits(price.credits, i18n.language)}</span>{' '}
                    {t(`pricing.units.${unit}`)}
                    <span className="block text-xs text-gray-500 dark:text-gray-400">
                      {t('pricing.since', { date: formatDate(price.effectiveFrom, i18n.language) })}
                    </span>
                  </>
                ) : (
                  <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900 dark:bg-amber-950 dark:text-amber-200">
                    {t('pricing.notSet')}
                  </span>
                )}
              </li>
            );
          })}
        </ul>
      );
    };
    return [
      {
        id: 'subject',
        header: t('pricing.subject'),
        cell: (s) => <span className="font-medium break-all">{subjectName(s, t)}</span>,
        sortValue: (s) => subjectName(s, t).toLowerCase(),
        canHide: false,
      },
      {
        id: 'purpose',
        header: t('pricing.purpose'),
        cell: (s) => t(`pricing.purposes.${s.purpose}`),
        sortValue: (s) => s.purpose,
      },
      { id: 'prices', header: t('pricing.inForce'), cell: priceCell, canHide: false },
    ];
  }, [t, prices, i18n.language]);

  const close = () => setDialog(null);
  const dialogName = dialog ? subjectName(dialog.subject, t) : '';
  return (
    <div>
      <PageHeading>{t('pages.pricing')}</PageHeading>
      <p className="mb-6 max-w-3xl text-sm text-gray-600 dark:text-gray-400">{t('pricing.intro')}</p>
      {pricing.data ? (
        <CurrencyForm currency={pricing.data.currency} creditRate={pricing.data.creditRate} notify={notify} />
      ) : null}
      <h2 className="mb-3 text-lg font-semibold">{t('pricing.inForce')}</h2>
      {models.data && models.data.length === 0 ? (
        <p className="mb-3 text-sm text-gray-600 dark:text-gray-400">{t('pricing.noModels')}</p>
      ) : null}
      <DataTable
        label={t('pricing.inForce')}
        testId="prices-table"
        columns={columns}
        rows={subjects}
        rowId={(subject) => subject.key}
        loading={pricing.isLoading || models.isLoading}
        error={
          pricing.error || models.error
            ? (errorMessage(pricing.error ?? models.error) ?? t('pricing.loadFailed'))
            : null
        }
        onRetry={() => {
          void pricing.refetch();
          void models.refetch();
        }}
        emptyText={t('pricing.noModels')}
        rowActions={(subject) => (
          <span className="inline-flex gap-1">
            <button
              type="button"
              className={buttonClass.row}
              onClick={() => setDialog({ kind: 'price', subject })}
              aria-label={t('pricing.setPriceFor', { name: subjectName(subject, t) })}
            >
              {t('pricing.setPrice')}
            </button>
            <button
              type="button"
              className={buttonClass.row}
              onClick={() => setDialog({ kind: 'history', subject })}
              aria-label={t('pricing.historyFor', { name: subjectName(subject, t) })}
            >
              {t('pricing.history')}
            </button>
          </span>
        )}
      />
      {dialog?.kind === 'price' && (
        <FormDialog title={t('pricing.setPriceFor', { name: dialogName })} onClose={close} testId="price-dialog">
          <PriceForm
            subject={dialog.subject}
            onCancel={close}
            onSaved={() => {
              close();
              notify(true, t('pricing.form.saved'));
            }}
          />
        </FormDialog>
      )}
      {dialog?.kind === 'history' && (
        <FormDialog
          title={t('pricing.historyFor', { name: dialogName })}
          onClose={close}
          size="lg"
          testId="history-dialog"
        >
          <PriceHistory subject={dialog.subject} />
          <div className="mt-4 flex justify-end">
            <button type="button" className={buttonClass.secondary} onClick={close}>
              {t('pricing.close')}
            </button>
          </div>
        </FormDialog>
      )}
      <ToastRegion toasts={toasts} onDismiss={dismiss} closeLabel={t('pricing.close')} />
    </div>
  );
}
