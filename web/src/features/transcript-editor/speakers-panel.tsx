import { useState, type ReactElement } from 'react';
import { speakerName } from '@earshot/contracts/constants';
import type { Toast } from '../../components/toast';
import { errorMessage } from '../../lib/api';
import { isStaleEdit, useMergeSpeakersMutation, useRenameSpeakerMutation } from './editor-api';
import { type Speaker, viewerCatalogue as catalogue } from '../../entities/transcripts';
import { SpeakerMergeDialog } from './speaker-merge';
import { SpeakerRename } from './speaker-rename';
import { useFeatureTranslation } from '../../i18n/feature';
import { catalogue as editorCatalogue } from './editor-i18n';

/** The transcript's speakers with their colours: rename one, merge two. Both join the undo stack. */
export function SpeakersPanel({
  fileId,
  speakers,
  colors,
  show,
  onEdited,
  onStale,
}: {
  fileId: string;
  speakers: readonly Speaker[];
  colors: Map<string, string>;
  show: (toast: Omit<Toast, 'id'>) => void;
  onEdited: (editId: string) => void;
  /** A rename or merge refused because someone else changed the transcript since: the page's notice says so. */
  onStale: () => void;
}): ReactElement {
  const { t } = useFeatureTranslation(editorCatalogue, catalogue);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [merging, setMerging] = useState(false);
  const [rename, renameState] = useRenameSpeakerMutation();
  const [merge, mergeState] = useMergeSpeakersMutation();

  const fail = (error: unknown) =>
    isStaleEdit(error) ? onStale() : show({ kind: 'error', title: t('editor.failed'), detail: errorMessage(error) });
  const onRename = (speakerId: string, name: string) => {
    rename({ fileId, speakerId, name })
      .unwrap()
      .then(({ editId }) => {
        setRenaming(null);
        if (editId) onEdited(editId);
        show({ kind: 'success', title: t('editor.renamed') });
      }, fail);
  };
  const onMerge = (from: string, into: string) => {
    merge({ fileId, from, into })
      .unwrap()
      .then((patch) => {
        setMerging(false);
        if (patch.editId) onEdited(patch.editId);
        show({ kind: 'success', title: t('editor.merged') });
      }, fail);
  };

  return (
    <section
      aria-label={t('editor.speakers')}
      className="mb-3 flex flex-wrap items-center gap-2"
      data-testid="speakers-panel"
    >
      <h2 className="text-sm font-medium text-gray-700 dark:text-gray-300">{t('editor.speakers')}</h2>
      {speakers.map((speaker) => {
        const name = speakerName(speaker.id, speakers);
        return (
          <div
            key={speaker.id}
            className="flex items-center gap-1.5 rounded-full border border-gray-200 bg-white py-1 pr-1 pl-2 dark:border-gray-700 dark:bg-gray-900"
            data-testid="speaker-chip"
            data-speaker-id={speaker.id}
          >
            <span
              aria-hidden="true"
              className="size-3 shrink-0 rounded-full"
              style={{ backgroundColor: colors.get(speaker.id) ?? '#64748b' }}
            />
            {renaming === speaker.id ? (
              <SpeakerRename
                fileId={fileId}
                name={name}
                saving={renameState.isLoading}
                onSave={(next) => onRename(speaker.id, next)}
                onCancel={() => setRenaming(null)}
              />
            ) : (
              <>
                <span className="max-w-40 truncate text-sm text-gray-900 dark:text-gray-100">{name}</span>
                <button
                  type="button"
                  onClick={() => setRenaming(speaker.id)}
                  aria-label={t('editor.rename', { name })}
                  className="rounded-full px-1.5 text-xs text-gray-500 hover:bg-gray-100 hover:text-brand-700 dark:text-gray-400 dark:hover:bg-gray-800"
                >
                  ✎
                </button>
              </>
            )}
          </div>
        );
      })}
      {speakers.length > 1 ? (
        <button
          type="button"
          onClick={() => setMerging(true)}
          className="rounded-full border border-dashed border-gray-300 px-3 py-1 text-sm text-gray-700 hover:bg-gray-50 dark:border-gray-600 dark:text-gray-200 dark:hover:bg-gray-800"
        >
          {t('editor.merge')}
        </button>
      ) : null}
      {merging ? (
        <SpeakerMergeDialog
          speakers={speakers}
          busy={mergeState.isLoading}
          onMerge={onMerge}
          onClose={() => setMerging(false)}
        />
      ) : null}
    </section>
  );
}
