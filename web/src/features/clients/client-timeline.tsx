import { useMemo, type ReactElement } from 'react';
import type { ClientDetailDto } from '@earshot/contracts';
import { useFeatureTranslation } from '../../i18n/feature';
import { catalogue } from './i18n';

interface Moment {
  key: string;
  at: string;
  text: string;
}

/**
 * What happened to the client, newest first, from what the clients API gives: when it was added,
 * when its details last changed, and when each recording was uploaded. (The audit log has every
 * edit, but only platform administrators may read it.)
 */
export function ClientTimeline({ client }: { client: ClientDetailDto }): ReactElement {
  const { t, i18n } = useFeatureTranslation(catalogue);
  const format = useMemo(() => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }), [i18n.language]);
  const moments: Moment[] = [
    { key: 'created', at: client.createdAt, text: t('clients.profile.created') },
    ...(client.updatedAt !== client.createdAt ? [{ key: 'updated', at: client.updatedAt, text: t('clients.profile.updated') }] : []),
    ...client.recordings.flatMap((recording) => (recording.uploadedAt
      ? [{ key: recording.fileId, at: recording.uploadedAt, text: t('clients.profile.recordingAdded', { name: recording.name ?? t('clients.profile.unnamed') }) }]
      : [])),
  ].sort((a, b) => b.at.localeCompare(a.at));
  return (
    <ol className="relative ml-2 border-l border-gray-200 dark:border-gray-700" data-testid="client-timeline">
      {moments.map((moment) => (
        <li key={moment.key} className="mb-4 ml-4">
          <span aria-hidden="true" className="absolute -left-1.5 mt-1.5 size-3 rounded-full border border-white bg-brand-500 dark:border-gray-900" />
          <time dateTime={moment.at} className="block text-xs text-gray-500 dark:text-gray-400">{format.format(new Date(moment.at))}</time>
          <p className="text-sm text-gray-800 dark:text-gray-200">{moment.text}</p>
        </li>
      ))}
    </ol>
  );
}
