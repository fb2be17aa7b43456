import { useId, useMemo, type ReactElement } from 'react';
import { useFeatureTranslation } from '../../i18n/feature';
import { catalogue } from './i18n';
import { useModalDialog } from '../../components/use-modal-dialog';
import { diffJson, showValue, type Change } from './diff';
import type { AuditEntry } from './model';

const CHANGE_STYLE: Record<Change, string> = {
  changed: 'bg-amber-50 dark:bg-amber-900/30',
  added: 'bg-green-50 dark:bg-green-900/30',
  removed: 'bg-red-50 dark:bg-red-900/30',
  same: 'text-gray-500 dark:text-gray-400',
};
const BADGE_STYLE: Record<Change, string> = {
  changed: 'bg-amber-100 text-amber-900 dark:bg-amber-800/60 dark:text-amber-100',
  added: 'bg-green-100 text-green-900 dark:bg-green-800/60 dark:text-green-100',
  removed: 'bg-red-100 text-red-900 dark:bg-red-800/60 dark:text-red-100',
  same: '',
};

/**
 * One entry in a side panel on the native modal <dialog>: focus stays inside while it is open,
 * Esc closes it, and focus goes back to what opened it. Named by its heading.
 */
export function EntryDrawer({
  entry,
  companyName,
  when,
  onClose,
}: {
  entry: AuditEntry | null;
  companyName: (id: string | null) => string;
  when: (iso: string) => string;
  onClose: () => void;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const titleId = useId();
  const open = entry !== null;
  const ref = useModalDialog(open);
  // What changed first; the unchanged fields after it, for context.
  const rows = useMemo(() => {
    const all = entry ? diffJson(entry.before, entry.after) : [];
    return [...all.filter((row) => row.change !== 'same'), ...all.filter((row) => row.change === 'same')];
  }, [entry]);
  const hasChanges = entry !== null && (entry.before !== null || entry.after !== null);

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      data-testid="audit-drawer"
      className="fixed inset-y-0 right-0 left-auto m-0 h-full max-h-none w-[42rem] max-w-full overflow-y-auto border-l border-gray-200 bg-white p-0 text-gray-900 shadow-xl backdrop:bg-gray-900/50 dark:border-gray-800 dark:bg-gray-900 dark:text-white"
    >
      {entry && (
        <div className="flex flex-col gap-6 p-6">
          <div className="flex items-start justify-between gap-4">
            <h2 id={titleId} className="text-lg font-semibold break-all">
              {t('auditLog.drawer.title', { type: entry.type })}
            </h2>
            <button
              type="button"
              onClick={onClose}
              className="rounded-lg border border-gray-300 px-3 py-1.5 text-sm hover:bg-gray-50 dark:border-gray-700 dark:hover:bg-gray-800"
            >
              {t('auditLog.drawer.close')}
            </button>
          </div>
          <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-2 text-sm">
            <dt className="text-gray-500 dark:text-gray-400">{t('auditLog.columns.occurredAt')}</dt>
            <dd>{when(entry.occurredAt)}</dd>
            <dt className="text-gray-500 dark:text-gray-400">{t('auditLog.columns.company')}</dt>
            <dd className="break-all">{companyName(entry.companyId)}</dd>
            <dt className="text-gray-500 dark:text-gray-400">{t('auditLog.columns.actor')}</dt>
            <dd className="break-all">
              {[entry.actor.email ?? entry.actor.id ?? t('auditLog.system'), entry.actor.role, entry.actor.ip]
                .filter(Boolean)
                .join(' · ')}
            </dd>
            <dt className="text-gray-500 dark:text-gray-400">{t('auditLog.columns.target')}</dt>
            <dd className="break-all">
              {entry.target.type}
              {entry.target.id ? ` ${entry.target.id}` : ''}
            </dd>
          </dl>

          <section aria-labelledby={`${titleId}-changes`}>
            <h3 id={`${titleId}-changes`} className="mb-2 font-semibold">
              {t('auditLog.drawer.changes')}
            </h3>
            {!hasChanges ? (
              <p className="text-sm text-gray-500 dark:text-gray-400">{t('auditLog.drawer.noChanges')}</p>
            ) : (
              <div className="overflow-x-auto rounded-xl border border-gray-200 dark:border-gray-800">
                <table className="w-full text-left text-sm" data-testid="audit-diff">
                  <thead className="bg-gray-50 text-xs text-gray-600 uppercase dark:bg-gray-800/60 dark:text-gray-400">
                    <tr>
                      <th scope="col" className="px-3 py-2">
                        {t('auditLog.drawer.field')}
                      </th>
                      <th scope="col" className="px-3 py-2">
                        {t('auditLog.drawer.before')}
                      </th>
                      <th scope="col" className="px-3 py-2">
                        {t('auditLog.drawer.after')}
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {rows.map((row) => (
                      <tr key={row.path} className={CHANGE_STYLE[row.change]} data-change={row.change}>
                        <th scope="row" className="px-3 py-2 align-top font-mono text-xs font-medium break-all">
                          {row.path}
                          {row.change !== 'same' && (
                            <span
                              className={`ml-2 rounded-full px-2 py-0.5 font-sans text-[11px] ${BADGE_STYLE[row.change]}`}
                            >
                              {t(`auditLog.drawer.change.${row.change}`)}
                            </span>
                          )}
                        </th>
                        <td className="px-3 py-2 align-top font-mono text-xs break-all">{showValue(row.before)}</td>
                        <td className="px-3 py-2 align-top font-mono text-xs break-all">{showValue(row.after)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>

          <section aria-labelledby={`${titleId}-raw`}>
            <h3 id={`${titleId}-raw`} className="mb-2 font-semibold">
              {t('auditLog.drawer.raw')}
            </h3>
            <pre
              className="max-h-96 overflow-auto rounded-xl bg-gray-50 p-3 text-xs dark:bg-gray-950"
              tabIndex={0}
              data-testid="audit-raw"
            >
              {JSON.stringify(entry, null, 2)}
            </pre>
          </section>
        </div>
      )}
    </dialog>
  );
}
