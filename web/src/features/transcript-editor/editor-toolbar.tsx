import type { ReactElement } from 'react';
import { DropdownMenu, type MenuEntry } from '../../components/dropdown-menu';
import { MOBILE_QUERY, useMediaQuery } from '../../components/use-media-query';
import { EXPORT_FORMATS, type ExportFormat, viewerCatalogue as catalogue } from '../../entities/transcripts';
import { useFeatureTranslation } from '../../i18n/feature';
import { catalogue as editorCatalogue } from './editor-i18n';

const buttonClass =
  'inline-flex items-center gap-1 rounded-lg border border-gray-300 px-3 py-1.5 text-sm text-gray-700 hover:bg-gray-50 disabled:opacity-50 dark:border-gray-700 dark:text-gray-200 dark:hover:bg-gray-800';

export interface ToolbarProps {
  canUndo: boolean;
  canRedo: boolean;
  onUndo: () => void;
  onRedo: () => void;
  onFind: () => void;
  onHistory: () => void;
  onExport: (format: ExportFormat) => void;
  onHelp: () => void;
}

/** Undo, redo, find, history, export and the shortcuts; on a phone, one menu holding them all. */
export function EditorToolbar({
  canUndo,
  canRedo,
  onUndo,
  onRedo,
  onFind,
  onHistory,
  onExport,
  onHelp,
}: ToolbarProps): ReactElement {
  const { t } = useFeatureTranslation(editorCatalogue, catalogue);
  const phone = useMediaQuery(MOBILE_QUERY);
  const exports: MenuEntry[] = EXPORT_FORMATS.map((format) => ({
    key: format,
    label: t('editor.exportAs', { format: format.toUpperCase() }),
    onSelect: () => onExport(format),
    testId: `export-${format}`,
  }));
  if (phone) {
    const entries: MenuEntry[] = [
      ...(canUndo ? [{ key: 'undo', label: t('editor.undo'), onSelect: onUndo, testId: 'undo' }] : []),
      ...(canRedo ? [{ key: 'redo', label: t('editor.redo'), onSelect: onRedo, testId: 'redo' }] : []),
      { key: 'find', label: t('editor.findReplace'), onSelect: onFind, testId: 'open-find' },
      { key: 'history', label: t('editor.history'), onSelect: onHistory, testId: 'open-history' },
      ...exports,
      { key: 'help', label: t('editor.shortcuts'), onSelect: onHelp, testId: 'open-shortcuts' },
    ];
    return (
      <DropdownMenu
        label={t('editor.tools')}
        button={<span aria-hidden="true">⋯</span>}
        entries={entries}
        buttonClassName={buttonClass}
        testId="editor-tools"
      />
    );
  }
  return (
    <div
      role="toolbar"
      aria-label={t('editor.tools')}
      className="flex flex-wrap items-center gap-2"
      data-testid="editor-toolbar"
    >
      <button
        type="button"
        onClick={onUndo}
        disabled={!canUndo}
        className={buttonClass}
        data-testid="undo"
        title="Ctrl+Z"
      >
        <span aria-hidden="true">↶</span>
        {t('editor.undo')}
      </button>
      <button
        type="button"
        onClick={onRedo}
        disabled={!canRedo}
        className={buttonClass}
        data-testid="redo"
        title="Ctrl+Shift+Z"
      >
        <span aria-hidden="true">↷</span>
        {t('editor.redo')}
      </button>
      <button type="button" onClick={onFind} className={buttonClass} data-testid="open-find" title="Ctrl+F">
        {t('editor.findReplace')}
      </button>
      <button type="button" onClick={onHistory} className={buttonClass} data-testid="open-history">
        {t('editor.history')}
      </button>
      <DropdownMenu
        label={t('editor.export')}
        buttonNamedByContent
        button={
          <>
            {t('editor.export')} <span aria-hidden="true">▾</span>
          </>
        }
        entries={exports}
        buttonClassName={buttonClass}
        testId="export-menu"
      />
      <button
        type="button"
        onClick={onHelp}
        aria-label={t('editor.shortcuts')}
        className={buttonClass}
        data-testid="open-shortcuts"
        title="?"
      >
        ?
      </button>
    </div>
  );
}
