import type { ReactElement } from 'react';
import { PageHeading } from '../../components/page-heading';
import { OwnDataExport } from '../../entities/people';
import { Spinner } from '../../components/spinner';
import { Alert } from '../../components/text-field';
import { useFeatureTranslation } from '../../i18n/feature';
import { useGetProfileQuery } from '../../lib/session-api';
import { DetailsSection } from './details-section';
import { catalogue } from './i18n';
import { NotificationsSection } from './notifications-section';
import { PasswordSection } from './password-section';
import { SectionCard } from './section-card';
import { SessionsSection } from './sessions-section';
import { TwoStepSection } from './two-step-section';

/** One's own account: profile, password, two-step sign-in, sessions, notification e-mails and one's data. */
export default function ProfilePage(): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const { data: user, isLoading, isError } = useGetProfileQuery();
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6">
      <PageHeading>{t('pages.profile')}</PageHeading>
      {isLoading && <Spinner label={t('pages.profile')} />}
      {isError && <Alert>{t('profile.loadFailed')}</Alert>}
      {user && (
        <>
          <DetailsSection key={user._id} user={user} />
          <PasswordSection />
          <TwoStepSection enabled={user.twoStepEnabled} />
          <SessionsSection />
          <NotificationsSection />
          <OwnDataExport
            person={{
              kind: 'user',
              id: user._id,
              name: `${user.firstName} ${user.lastName}`.trim(),
              email: user.email,
            }}
            Frame={SectionCard}
          />
        </>
      )}
    </div>
  );
}
