import type { ReactElement } from 'react';
import type { SessionDto } from '@earshot/contracts';
import { buttonClass } from '../../components/form-field';
import { Spinner } from '../../components/spinner';
import { useFeatureTranslation } from '../../i18n/feature';
import { useRevokeOtherSessionsMutation, useRevokeSessionMutation, useSessionsQuery } from './profile-api';
import { catalogue } from './i18n';
import { OutcomeLine } from './outcome-line';
import { SectionCard } from './section-card';
import { useSectionOutcome } from './use-form-state';

/** Where one is signed in; sign one session out, or every one but this. */
export function SessionsSection(): ReactElement {
  const { t, i18n } = useFeatureTranslation(catalogue);
  const { data: sessions, isLoading, isError } = useSessionsQuery();
  const [revoke, revoking] = useRevokeSessionMutation();
  const [revokeOthers, revokingOthers] = useRevokeOtherSessionsMutation();
  const section = useSectionOutcome(t('profile.failed'));
  const when = (iso: string) =>
    new Intl.DateTimeFormat(i18n.resolvedLanguage, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

  const signOut = async (session: SessionDto) => {
    try {
      await revoke(session._id).unwrap();
      section.succeeded(t('profile.sessions.signedOut'));
    } catch (error) {
      section.failed(error);
    }
  };
  const signOutOthers = async () => {
    try {
      const { revoked } = await revokeOthers().unwrap();
      section.succeeded(t('profile.sessions.signedOutOthers', { count: revoked }));
    } catch (error) {
      section.failed(error);
    }
  };

  const others = sessions?.filter((session) => !session.current).length ?? 0;
  return (
    <SectionCard id="sessions" title={t('profile.sessions.title')}>
      {isLoading && <Spinner label={t('profile.sessions.title')} />}
      {isError && <OutcomeLine outcome={{ tone: 'error', text: t('profile.failed') }} testId="sessions-error" />}
      {sessions && (
        <ul className="divide-y divide-gray-200 dark:divide-gray-800" data-testid="sessions-list">
          {sessions.map((session) => (
            <li
              key={session._id}
              className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between"
              data-testid="session-row"
            >
              <div className="min-w-0 text-sm">
                <p className="font-medium text-gray-900 dark:text-white">
                  {session.device}
                  {session.current && (
                    <span className="ml-2 rounded-full bg-brand-100 px-2 py-0.5 text-xs text-brand-800 dark:bg-brand-900 dark:text-brand-100">
                      {t('profile.sessions.current')}
                    </span>
                  )}
                </p>
                <p className="text-gray-600 dark:text-gray-400">
                  {t('profile.sessions.address')}: {session.address} ·{' '}
                  {t('profile.sessions.lastSeen', { when: when(session.lastSeenAt) })}
                </p>
              </div>
              {!session.current && (
                <button
                  type="button"
                  className={`${buttonClass.danger} self-start sm:self-auto`}
                  disabled={revoking.isLoading}
                  onClick={() => void signOut(session)}
                  data-testid="session-sign-out"
                >
                  {t('profile.sessions.signOut')}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {sessions && others === 0 && (
        <p className="text-sm text-gray-600 dark:text-gray-400">{t('profile.sessions.empty')}</p>
      )}
      <OutcomeLine outcome={section.outcome} testId="sessions-outcome" />
      {others > 0 && (
        <div>
          <button
            type="button"
            className={buttonClass.secondary}
            disabled={revokingOthers.isLoading}
            onClick={() => void signOutOthers()}
            data-testid="sessions-sign-out-others"
          >
            {t('profile.sessions.signOutOthers')}
          </button>
        </div>
      )}
    </SectionCard>
  );
}
