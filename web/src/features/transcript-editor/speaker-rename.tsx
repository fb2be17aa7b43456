import { SPEAKER_NAME_MAX } from '@earshot/contracts/constants';
import { useId, useState, type FormEvent, type ReactElement } from 'react';
import { usePeopleQuery } from './editor-api';
import { useFeatureTranslation } from '../../i18n/feature';
import { viewerCatalogue as catalogue } from '../../entities/transcripts';
import { catalogue as editorCatalogue } from './editor-i18n';

/**
 * The rename field: a combobox (input + datalist) offering the company's known people — members,
 * clients' contacts, names already given — with the uploader of a stereo call first.
 */
export function SpeakerRename({
  fileId,
  name,
  saving,
  onSave,
  onCancel,
}: {
  fileId: string;
  name: string;
  saving: boolean;
  onSave: (name: string) => void;
  onCancel: () => void;
}): ReactElement {
  const { t } = useFeatureTranslation(editorCatalogue, catalogue);
  const listId = useId();
  const [draft, setDraft] = useState(name);
  const people = usePeopleQuery(fileId).data ?? [];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = draft.trim();
    if (!trimmed || trimmed === name) onCancel();
    else onSave(trimmed);
  };
  return (
    <form onSubmit={submit} className="flex flex-wrap items-center gap-2" data-testid="speaker-rename">
      <input
        autoFocus
        value={draft}
        maxLength={SPEAKER_NAME_MAX}
        list={listId}
        disabled={saving}
        aria-label={t('editor.nameOf', { name })}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault();
            onCancel();
          }
        }}
        className="w-44 min-w-0 rounded-lg border border-brand-400 bg-white px-2 py-1 text-sm text-gray-900 dark:bg-gray-800 dark:text-white"
      />
      <datalist id={listId}>
        {people.map((person) => (
          <option key={`${person.kind}:${person.name}`} value={person.name} />
        ))}
      </datalist>
      <button
        type="submit"
        disabled={saving}
        className="rounded bg-brand-600 px-2 py-1 text-xs text-white disabled:opacity-60"
      >
        {t('viewer.save')}
      </button>
      <button
        type="button"
        disabled={saving}
        onClick={onCancel}
        className="rounded border border-gray-300 px-2 py-1 text-xs text-gray-700 dark:border-gray-600 dark:text-gray-200"
      >
        {t('viewer.cancel')}
      </button>
    </form>
  );
}
