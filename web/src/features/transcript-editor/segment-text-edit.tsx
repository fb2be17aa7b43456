import { useState, type KeyboardEvent, type ReactElement } from 'react';
import { useEditorActions } from './editor-context';
import { useFeatureTranslation } from '../../i18n/feature';
import { viewerCatalogue as catalogue } from '../../entities/transcripts';
import { catalogue as editorCatalogue } from './editor-i18n';

/**
 * A turn's whole text in a textarea. The draft lives here, not in the page, so typing re-renders
 * this one field. A turn is one line: Enter saves, Shift+Enter adds nothing, Esc cancels.
 */
export function SegmentTextEdit({
  segmentId,
  text,
  saving,
}: {
  segmentId: string;
  text: string;
  saving: boolean;
}): ReactElement {
  const { t } = useFeatureTranslation(editorCatalogue, catalogue);
  const actions = useEditorActions();
  const [draft, setDraft] = useState(text);
  const onKey = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      if (!event.shiftKey) actions.saveText(segmentId, draft);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      actions.cancelText();
    }
  };
  return (
    <div className="flex flex-col gap-2">
      <textarea
        autoFocus
        value={draft}
        disabled={saving}
        aria-label={t('editor.textLabel')}
        aria-describedby={`hint-${segmentId}`}
        data-testid="segment-textarea"
        // A pasted line break would be refused by the server: it becomes a space.
        onChange={(event) => setDraft(event.target.value.replace(/[\r\n]+/g, ' '))}
        onKeyDown={onKey}
        className="field-sizing-content min-h-16 w-full resize-none rounded-lg border border-brand-400 bg-white px-2 py-1.5 text-sm leading-6 text-gray-900 dark:bg-gray-800 dark:text-white"
      />
      <div className="flex flex-wrap items-center gap-2 text-xs">
        <span id={`hint-${segmentId}`} className="mr-auto text-gray-500 dark:text-gray-400">
          {t('editor.textHint')}
        </span>
        <button
          type="button"
          disabled={saving}
          onClick={() => actions.saveText(segmentId, draft)}
          data-testid="segment-text-save"
          className="rounded bg-brand-600 px-2 py-1 text-white disabled:opacity-60"
        >
          {t('viewer.save')}
        </button>
        <button
          type="button"
          disabled={saving}
          onClick={actions.cancelText}
          className="rounded border border-gray-300 px-2 py-1 text-gray-700 dark:border-gray-600 dark:text-gray-200"
        >
          {t('viewer.cancel')}
        </button>
      </div>
    </div>
  );
}
