// An ADMIN's export or erasure of one person, from the users and clients pages. A lazy
// chunk of its own: few open it. Erasing names the person, asks what becomes of their recordings,
// and waits until the person's e-mail address or name is typed; then the job's report follows.
// A legal hold's refusal (409) is the server's message, shown here.
import { useId, useState, type FormEvent, type ReactElement } from 'react';
import type { PrivacyEraseBody } from '@earshot/contracts';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { useErasePersonMutation, usePrivacyJob, type PrivacyPerson } from './privacy-api';
import { FormDialog } from '../../components/form-dialog';
import { buttonClass, fieldInputClass } from '../../components/form-field';
import { ExportPanel } from './privacy-export';
import { PrivacyJobView } from './privacy-job';
import { catalogue } from './privacy-i18n';
import { Alert } from '../../components/text-field';

export type PrivacyAction = 'export' | 'erase';

export interface PrivacyDialogProps {
  action: PrivacyAction;
  person: PrivacyPerson;
  /** `erased`: an erasure was started (the lists that showed the person are out of date). */
  onClose: (erased: boolean) => void;
}

/** Case, accents' composition and spacing aside, is `typed` the person's e-mail address or name? */
export function confirmsPerson(typed: string, person: Pick<PrivacyPerson, 'name' | 'email'>): boolean {
  const plain = (text: string) => text.normalize('NFC').trim().replace(/\s+/g, ' ').toLocaleLowerCase();
  const value = plain(typed);
  return value !== '' && [person.email, person.name].some((expected) => expected !== null && plain(expected) === value);
}

const RECORDINGS: ReadonlyArray<PrivacyEraseBody['recordings']> = ['delete', 'keep'];

function EraseForm({
  person,
  onStarted,
  onCancel,
}: {
  person: PrivacyPerson;
  onStarted: (jobId: string) => void;
  onCancel: () => void;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const [erase, erasing] = useErasePersonMutation();
  const [recordings, setRecordings] = useState<PrivacyEraseBody['recordings'] | null>(null);
  const [typed, setTyped] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const confirmId = useId();
  const ready = recordings !== null && confirmsPerson(typed, person);
  const values = { name: person.name, email: person.email ?? '' };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!ready) return;
    setFailure(null);
    try {
      onStarted((await erase({ person, recordings }).unwrap()).jobId);
    } catch (error) {
      setFailure(errorMessage(error) ?? t('privacy.erase.startFailed'));
    }
  };

  return (
    <form
      noValidate
      onSubmit={(event) => void submit(event)}
      className="flex flex-col gap-4"
      data-testid="privacy-erase-form"
    >
      <p className="text-sm text-gray-700 dark:text-gray-300">
        {t(person.kind === 'user' ? 'privacy.erase.introUser' : 'privacy.erase.introClient', values)}
      </p>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium text-gray-900 dark:text-white">
          {t(person.kind === 'user' ? 'privacy.erase.recordingsUser' : 'privacy.erase.recordingsClient', values)}
        </legend>
        {RECORDINGS.map((choice) => (
          <label
            key={choice}
            className="flex cursor-pointer gap-3 rounded-lg border border-gray-200 p-3 text-sm has-[:checked]:border-brand-500 has-[:checked]:bg-brand-50 dark:border-gray-700 dark:has-[:checked]:bg-brand-900/30"
          >
            <input
              type="radio"
              name="recordings"
              value={choice}
              checked={recordings === choice}
              onChange={() => setRecordings(choice)}
              className="mt-0.5 size-4 shrink-0 accent-brand-600"
              data-testid={`privacy-recordings-${choice}`}
            />
            <span className="flex flex-col gap-0.5">
              <span className="font-medium text-gray-900 dark:text-white">{t(`privacy.erase.${choice}`)}</span>
              <span className="text-gray-600 dark:text-gray-400">{t(`privacy.erase.${choice}Hint`, values)}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <div>
        <label htmlFor={confirmId} className="mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-300">
          {person.email ? t('privacy.erase.confirmBoth', values) : t('privacy.erase.confirmName', values)}
        </label>
        <input
          id={confirmId}
          type="text"
          autoComplete="off"
          spellCheck={false}
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          className={fieldInputClass}
          data-testid="privacy-erase-confirm"
        />
      </div>
      {failure ? <Alert testId="privacy-erase-error">{failure}</Alert> : null}
      <div className="flex flex-wrap justify-end gap-3">
        <button type="button" onClick={onCancel} className={buttonClass.secondary}>
          {t('privacy.cancel')}
        </button>
        <button
          type="submit"
          disabled={!ready || erasing.isLoading}
          className="rounded-lg bg-red-600 px-4 py-2 text-sm font-medium text-white hover:bg-red-700 disabled:cursor-not-allowed disabled:opacity-60"
          data-testid="privacy-erase-submit"
        >
          {t('privacy.erase.submit')}
        </button>
      </div>
    </form>
  );
}

function EraseJob({ jobId, person }: { jobId: string; person: PrivacyPerson }): ReactElement {
  const { job, error } = usePrivacyJob(jobId);
  return <PrivacyJobView job={job} error={error} name={person.name} />;
}

export default function PrivacyDialog({ action, person, onClose }: PrivacyDialogProps): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const [eraseJob, setEraseJob] = useState<string | null>(null);
  const close = () => onClose(eraseJob !== null);
  const closeButton = (
    <div className="mt-6 flex justify-end">
      <button type="button" onClick={close} className={buttonClass.secondary} data-testid="privacy-close">
        {t('privacy.close')}
      </button>
    </div>
  );
  if (action === 'export') {
    return (
      <FormDialog title={t('privacy.export.title', { name: person.name })} onClose={close} testId="privacy-dialog">
        <ExportPanel
          person={person}
          intro={t(person.kind === 'user' ? 'privacy.export.introUser' : 'privacy.export.introClient', {
            name: person.name,
          })}
          startLabel={t('privacy.export.start')}
        />
        {closeButton}
      </FormDialog>
    );
  }
  return (
    <FormDialog title={t('privacy.erase.title', { name: person.name })} onClose={close} testId="privacy-dialog">
      {eraseJob ? (
        <>
          <EraseJob jobId={eraseJob} person={person} />
          {closeButton}
        </>
      ) : (
        <EraseForm person={person} onStarted={setEraseJob} onCancel={close} />
      )}
    </FormDialog>
  );
}
