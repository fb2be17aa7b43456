import type { ReactElement } from 'react';
import { FormDialog } from '../../components/form-dialog';
import { SHORTCUT_LIST } from './shortcuts';
import { useFeatureTranslation } from '../../i18n/feature';
import { viewerCatalogue as catalogue } from '../../entities/transcripts';
import { catalogue as editorCatalogue } from './editor-i18n';

/** The "?" overlay: every key of the viewer and editor. */
export function ShortcutsDialog({ onClose }: { onClose: () => void }): ReactElement {
  const { t } = useFeatureTranslation(editorCatalogue, catalogue);
  return (
    <FormDialog title={t('editor.shortcuts')} onClose={onClose} testId="shortcuts-dialog" size="lg">
      <table className="w-full text-left text-sm">
        <thead className="text-xs text-gray-500 dark:text-gray-400">
          <tr>
            <th scope="col" className="pb-2">
              {t('editor.keys')}
            </th>
            <th scope="col" className="pb-2">
              {t('editor.action')}
            </th>
          </tr>
        </thead>
        <tbody>
          {SHORTCUT_LIST.map((row) => (
            <tr key={row.action} className="border-t border-gray-100 dark:border-gray-800">
              <td className="py-2 pr-3">
                <span className="flex flex-wrap gap-1">
                  {row.keys.map((key) => (
                    <kbd
                      key={key}
                      className="rounded border border-gray-300 bg-gray-50 px-1.5 py-0.5 font-mono text-xs dark:border-gray-600 dark:bg-gray-800"
                    >
                      {key}
                    </kbd>
                  ))}
                </span>
              </td>
              <td className="py-2">{t(`editor.actions.${row.action}`)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="mt-4 flex justify-end">
        <button
          type="button"
          onClick={onClose}
          className="rounded-lg border border-gray-300 px-4 py-2 text-sm font-medium dark:border-gray-700"
        >
          {t('editor.close')}
        </button>
      </div>
    </FormDialog>
  );
}
