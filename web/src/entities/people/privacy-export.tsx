// A person's export: a button starts the job, its progress follows, then the ZIP's
// link. One's own on the account page; an ADMIN's people from the users and clients pages.
import { useState, type ComponentType, type ReactElement, type ReactNode } from 'react';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { useExportPersonDataMutation, usePrivacyJob, type PrivacyPerson } from './privacy-api';
import { buttonClass } from '../../components/form-field';
import { PrivacyJobView } from './privacy-job';
import { catalogue } from './privacy-i18n';
import { Alert } from '../../components/text-field';

export function ExportPanel({
  person,
  intro,
  startLabel,
}: {
  person: PrivacyPerson;
  intro: string;
  startLabel: string;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const [start, starting] = useExportPersonDataMutation();
  const [jobId, setJobId] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const { job, error, running } = usePrivacyJob(jobId);

  const begin = async () => {
    setFailure(null);
    try {
      setJobId((await start(person).unwrap()).jobId);
    } catch (error) {
      setFailure(errorMessage(error) ?? t('privacy.export.startFailed'));
    }
  };

  return (
    <div className="flex flex-col gap-4" data-testid="privacy-export">
      <p className="text-sm text-gray-600 dark:text-gray-400">{intro}</p>
      <div>
        <button
          type="button"
          className={buttonClass.primary}
          disabled={starting.isLoading || running}
          onClick={() => void begin()}
          data-testid="privacy-export-start"
        >
          {startLabel}
        </button>
      </div>
      {failure ? <Alert>{failure}</Alert> : null}
      {jobId ? <PrivacyJobView job={job} error={error} name={person.name} /> : null}
    </div>
  );
}

/** The frame the account page gives each of its sections (a titled card). */
export type SectionFrame = ComponentType<{ id: string; title: string; children: ReactNode }>;

/** "Your data" on the account page: anyone may download what Earshot holds about themself. */
export function OwnDataExport({ person, Frame }: { person: PrivacyPerson; Frame: SectionFrame }): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  return (
    <Frame id="data" title={t('privacy.own.title')}>
      <ExportPanel person={person} intro={t('privacy.own.intro')} startLabel={t('privacy.own.start')} />
    </Frame>
  );
}
