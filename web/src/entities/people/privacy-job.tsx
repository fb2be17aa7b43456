// A privacy job as it runs: its place in the company's line while it waits its turn, how many
// services answered, then what each one exported or removed, in words (a service or count the
// catalogue does not know shows as the server names it).
import { useId, type ReactElement } from 'react';
import type { PrivacyJobDto } from '@earshot/contracts';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { privacyProgress } from './privacy-api';
import { catalogue } from './privacy-i18n';
import { Spinner } from '../../components/spinner';
import { Alert, linkClass } from '../../components/text-field';

export function PrivacyJobView({
  job,
  error,
  name,
}: {
  job: PrivacyJobDto | undefined;
  error: unknown;
  /** Whom the job is about, as the page names them. */
  name: string;
}): ReactElement {
  const { t, i18n } = useFeatureTranslation(catalogue);
  const progressId = useId();
  if (!job) {
    return error ? (
      <Alert testId="privacy-job-error">{errorMessage(error) ?? t('privacy.job.loadFailed')}</Alert>
    ) : (
      <Spinner label={t('privacy.job.waiting')} />
    );
  }
  const { done, total } = privacyProgress(job);
  const number = new Intl.NumberFormat(i18n.language);
  const counts = (values: Record<string, number>) => {
    const entries = Object.entries(values);
    if (entries.length === 0) return t('privacy.job.none');
    return entries
      .map(([kind, count]) => `${t(`privacy.kinds.${kind}`, { defaultValue: kind })}: ${number.format(count)}`)
      .join(' · ');
  };
  return (
    <div className="flex flex-col gap-3" data-testid="privacy-job" data-status={job.status}>
      {job.status === 'queued' && job.position !== null ? (
        <span className="text-sm text-gray-700 dark:text-gray-300" data-testid="privacy-queued">
          {t('privacy.job.queued', { ahead: number.format(job.position - 1) })}
        </span>
      ) : null}
      {job.status === 'running' ? (
        <div className="flex flex-col gap-1.5">
          <span id={progressId} className="text-sm text-gray-700 dark:text-gray-300" data-testid="privacy-progress">
            {t('privacy.job.progress', { done, total })}
          </span>
          <progress aria-labelledby={progressId} value={done} max={total} className="h-2 w-full accent-brand-600" />
        </div>
      ) : null}
      {job.status === 'failed' ? (
        <Alert>{t(job.kind === 'export' ? 'privacy.export.failed' : 'privacy.erase.failed')}</Alert>
      ) : null}
      {job.status === 'done' && job.kind === 'erase' ? (
        <Alert tone="success">{t('privacy.erase.done', { name })}</Alert>
      ) : null}
      {job.status === 'done' && job.download ? (
        <Alert tone="success">
          <span className="flex flex-wrap items-center justify-between gap-2">
            {t('privacy.export.ready')}
            <a href={job.download} download className={linkClass} data-testid="privacy-download">
              {t('privacy.export.download')}
            </a>
          </span>
        </Alert>
      ) : null}
      <div>
        <h3 className="mb-1 text-sm font-semibold text-gray-900 dark:text-white">
          {t(job.kind === 'export' ? 'privacy.export.report' : 'privacy.erase.report')}
        </h3>
        <ul className="divide-y divide-gray-200 text-sm dark:divide-gray-800" data-testid="privacy-report">
          {job.parts.map((part) => (
            <li
              key={part.service}
              className="flex flex-wrap justify-between gap-x-4 py-1.5"
              data-testid="privacy-part"
              data-service={part.service}
            >
              <span className="font-medium text-gray-900 dark:text-gray-100">
                {t(`privacy.services.${part.service}`, { defaultValue: part.service })}
              </span>
              <span className="text-gray-700 dark:text-gray-300">{counts(part.counts)}</span>
            </li>
          ))}
          {job.pendingServices.map((service) => (
            <li
              key={service}
              className="flex flex-wrap justify-between gap-x-4 py-1.5 text-gray-500 dark:text-gray-400"
              data-testid="privacy-pending"
              data-service={service}
            >
              <span>{t(`privacy.services.${service}`, { defaultValue: service })}</span>
              <span>{t('privacy.job.waiting')}</span>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
