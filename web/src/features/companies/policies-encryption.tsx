// Encryption at rest's background pass, per service: once a company turns encryption
// on, each service encrypts what it already stored. Shown to the platform administrator in the
// company dialog and to the company's ADMIN on /data-policies; asked again every 2 s until every
// service is done. Nothing is shown while encryption is off.
import { useEffect, useId, useState, type ReactElement } from 'react';
import type { CompanyEncryptionProgress, ServiceEncryptionProgress } from '@earshot/contracts';
import { useFeatureTranslation } from '../../i18n/feature';
import { useCompanyEncryptionQuery } from './policies-encryption-api';
import { catalogue } from './policies-encryption-i18n';

const POLL_MS = 2000;

/** Still to come: a service working, or not yet started on a company that turned encryption on. */
const unfinished = (data: CompanyEncryptionProgress | undefined) =>
  Boolean(data?.encryption && data.services.some((service) => service.state !== 'done'));

export function EncryptionProgress({ companyId }: { companyId: string }): ReactElement | null {
  const { t } = useFeatureTranslation(catalogue);
  const [polling, setPolling] = useState(false);
  const { data } = useCompanyEncryptionQuery(companyId, {
    pollingInterval: polling ? POLL_MS : 0,
    skipPollingIfUnfocused: true,
  });
  useEffect(() => setPolling(unfinished(data)), [data]);
  if (!data?.encryption) return null;
  return (
    <div className="flex flex-col gap-2" data-testid="encryption-progress">
      <p className="text-sm font-medium text-gray-900 dark:text-white">{t('encryptionProgress.title')}</p>
      <ul className="flex flex-col gap-2">
        {data.services.map((service) => (
          <ServiceRow key={service.service} progress={service} />
        ))}
      </ul>
    </div>
  );
}

function ServiceRow({ progress }: { progress: ServiceEncryptionProgress }): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const name = t(`encryptionProgress.services.${progress.service}`, { defaultValue: progress.service });
  const label =
    progress.state === 'done'
      ? t('encryptionProgress.done', { name })
      : progress.state === 'running'
        ? t('encryptionProgress.running', { name, done: progress.done, total: progress.total })
        : t('encryptionProgress.idle', { name });
  const id = useId();
  return (
    <li className="flex flex-col gap-1" data-testid={`encryption-${progress.service}`}>
      <span id={id} className="text-sm text-gray-700 dark:text-gray-300">
        {label}
      </span>
      {progress.state === 'running' && (
        <progress
          aria-labelledby={id}
          value={progress.done}
          max={Math.max(progress.total, 1)}
          className="h-2 w-full accent-brand-600"
        />
      )}
    </li>
  );
}
