import { useState, type FormEvent, type ReactElement } from 'react';
import { speakerName } from '@earshot/contracts/constants';
import { DialogButtons, FormDialog } from '../../components/form-dialog';
import { type Speaker, viewerCatalogue as catalogue } from '../../entities/transcripts';
import { useFeatureTranslation } from '../../i18n/feature';
import { catalogue as editorCatalogue } from './editor-i18n';

const selectClass =
  'mt-1 w-full rounded-lg border border-gray-300 bg-white px-3 py-2 text-sm text-gray-900 dark:border-gray-700 dark:bg-gray-800 dark:text-white';

/** Merge two speakers: every turn of the first becomes the second's. */
export function SpeakerMergeDialog({
  speakers,
  busy,
  onMerge,
  onClose,
}: {
  speakers: readonly Speaker[];
  busy: boolean;
  onMerge: (from: string, into: string) => void;
  onClose: () => void;
}): ReactElement {
  const { t } = useFeatureTranslation(editorCatalogue, catalogue);
  const [from, setFrom] = useState(speakers[1]?.id ?? '');
  const [into, setInto] = useState(speakers[0]?.id ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (from && into && from !== into) onMerge(from, into);
  };
  const options = speakers.map((speaker) => (
    <option key={speaker.id} value={speaker.id}>
      {speakerName(speaker.id, speakers)}
    </option>
  ));
  return (
    <FormDialog title={t('editor.merge')} onClose={onClose} testId="speaker-merge-dialog">
      <form onSubmit={submit} className="space-y-4">
        <label className="block text-sm font-medium">
          {t('editor.mergeFrom')}
          <select
            value={from}
            onChange={(event) => setFrom(event.target.value)}
            className={selectClass}
            data-testid="merge-from"
          >
            {options}
          </select>
        </label>
        <label className="block text-sm font-medium">
          {t('editor.mergeInto')}
          <select
            value={into}
            onChange={(event) => setInto(event.target.value)}
            className={selectClass}
            data-testid="merge-into"
          >
            {options}
          </select>
        </label>
        <DialogButtons
          cancelLabel={t('viewer.cancel')}
          submitLabel={t('editor.merge')}
          busy={busy || !from || from === into}
          onCancel={onClose}
        />
      </form>
    </FormDialog>
  );
}
