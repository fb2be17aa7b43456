// "Export selected": the chosen recordings' transcripts in one format, as one ZIP.
import { useState, type ReactElement } from 'react';
import { fieldInputClass } from '../../components/form-field';
import { useFeatureTranslation } from '../../i18n/feature';
import { useAppDispatch } from '../../lib/store';
import { EXPORT_FORMATS, type ExportFormat } from '../../entities/transcripts';
import { catalogue } from './library-i18n';
import { downloadSelected } from './list-api';

/** The server takes at most this many recordings in one export. */
export const EXPORT_MAX = 100;

export function ExportSelected({
  selected,
  onClear,
  onError,
}: {
  selected: string[];
  onClear: () => void;
  onError: (detail: string | null) => void;
}): ReactElement | null {
  const { t } = useFeatureTranslation(catalogue);
  const dispatch = useAppDispatch();
  const [format, setFormat] = useState<ExportFormat>('txt');
  const [busy, setBusy] = useState(false);
  if (selected.length === 0) return null;
  const tooMany = selected.length > EXPORT_MAX;
  const onExport = async () => {
    setBusy(true);
    const failure = await downloadSelected(selected, format, dispatch);
    setBusy(false);
    if (failure !== null) onError(failure || null);
  };
  return (
    <div
      className="mb-4 flex flex-wrap items-center gap-3 rounded-xl border border-brand-200 bg-brand-50 px-4 py-2 dark:border-brand-800 dark:bg-brand-900/30"
      role="region"
      aria-label={t('library.export.region')}
      data-testid="selection-bar"
    >
      <p
        className="mr-auto text-sm font-medium text-gray-800 dark:text-gray-100"
        aria-live="polite"
        data-testid="selection-count"
      >
        {t('library.select.count', { count: selected.length })}
      </p>
      {tooMany && (
        <p className="w-full text-xs text-red-700 sm:w-auto dark:text-red-300">
          {t('library.export.tooMany', { max: EXPORT_MAX })}
        </p>
      )}
      <label className="flex items-center gap-2 text-sm text-gray-700 dark:text-gray-300">
        {t('library.export.format')}
        <select
          className={`${fieldInputClass} w-24`}
          value={format}
          onChange={(event) => setFormat(event.target.value as ExportFormat)}
          data-testid="export-format"
        >
          {EXPORT_FORMATS.map((code) => (
            <option key={code} value={code}>
              {code.toUpperCase()}
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        onClick={() => void onExport()}
        disabled={busy || tooMany}
        className="rounded-lg bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700 disabled:opacity-60"
        data-testid="export-selected"
      >
        {busy ? t('library.export.busy') : t('library.export.button')}
      </button>
      <button
        type="button"
        onClick={onClear}
        className="rounded-lg px-3 py-2 text-sm text-gray-700 hover:bg-white dark:text-gray-200 dark:hover:bg-gray-800"
      >
        {t('library.select.clear')}
      </button>
    </div>
  );
}
