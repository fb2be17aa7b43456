import type { ReactElement } from 'react';
import type { MailPreferencesDto } from '@earshot/contracts';
import { Checkbox } from '../../components/form-field';
import { Spinner } from '../../components/spinner';
import { useFeatureTranslation } from '../../i18n/feature';
import { useMailPreferencesQuery, useSaveMailPreferencesMutation } from './profile-api';
import { catalogue } from './i18n';
import { OutcomeLine } from './outcome-line';
import { SectionCard } from './section-card';
import { useSectionOutcome } from './use-form-state';

const PREFERENCES = ['transcriptReady', 'transcriptionFailed'] as const satisfies readonly (keyof MailPreferencesDto)[];

/** The notification e-mails one wants; each box is saved as it is ticked. */
export function NotificationsSection(): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const { data, isLoading, isError } = useMailPreferencesQuery();
  const [save] = useSaveMailPreferencesMutation();
  const section = useSectionOutcome(t('profile.failed'));

  const change = async (key: (typeof PREFERENCES)[number], value: boolean) => {
    try {
      await save({ [key]: value }).unwrap();
      section.succeeded(t('profile.saved'));
    } catch (error) {
      section.failed(error);
    }
  };

  return (
    <SectionCard id="notifications" title={t('profile.notifications.title')}>
      <p className="text-sm text-gray-600 dark:text-gray-400">{t('profile.notifications.intro')}</p>
      {isLoading && <Spinner label={t('profile.notifications.title')} />}
      {isError && <OutcomeLine outcome={{ tone: 'error', text: t('profile.failed') }} testId="notifications-error" />}
      {data &&
        PREFERENCES.map((key) => (
          <Checkbox
            key={key}
            label={t(`profile.notifications.${key}`)}
            checked={data[key]}
            onChange={(value) => void change(key, value)}
            testId={`notify-${key}`}
          />
        ))}
      <OutcomeLine outcome={section.outcome} testId="notifications-outcome" />
    </SectionCard>
  );
}
