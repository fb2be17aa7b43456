// The company's identity provider: whether single sign-on is on, the redirect URI to register,
// the settings form, "Test sign-in" and turning it off.
import { useState, type ReactElement } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { buttonClass } from '../../components/form-parts';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { useRemoveSsoMutation, useSsoSettingsQuery } from './identity-api';
import { SsoSettingsForm } from './sso-settings-form';
import { catalogue } from './i18n';

const CALLBACK_PATH = '/api/auth/sso/callback';

export function SsoSection({ companyId, testReturn }: { companyId: string; testReturn: string }): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const settings = useSsoSettingsQuery(companyId);
  const [remove, removing] = useRemoveSsoMutation();
  const [confirming, setConfirming] = useState(false);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const current = settings.data ?? null;
  const redirectUri = current?.redirectUri ?? `${window.location.origin}${CALLBACK_PATH}`;

  const test = () => {
    if (!current) return;
    const url = new URL(current.startUrl, window.location.origin);
    url.searchParams.set('returnTo', testReturn);
    window.location.assign(url.toString());
  };
  const turnOff = () => {
    setConfirming(false);
    remove(companyId)
      .unwrap()
      .then(
        () => setNotice({ ok: true, text: t('sso.removed') }),
        (error: unknown) => setNotice({ ok: false, text: errorMessage(error) ?? t('sso.failed') }),
      );
  };

  return (
    <section aria-labelledby="sso-title" className="flex flex-col gap-4" data-testid="sso-section">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="sso-title" className="text-lg font-semibold text-gray-900 dark:text-white">
          {t('sso.title')}
        </h2>
        {current ? (
          <div className="flex gap-2">
            <button type="button" className={buttonClass.secondary} onClick={test} data-testid="sso-test">
              {t('sso.test')}
            </button>
            <button type="button" className={buttonClass.secondary} onClick={() => setConfirming(true)}>
              {t('sso.remove')}
            </button>
          </div>
        ) : null}
      </div>
      {/* Said once the settings are known: "off" while they load would be wrong for a company with SSO. */}
      {settings.isLoading ? null : (
        <p className="text-sm text-gray-700 dark:text-gray-300" data-testid="sso-state">
          {t(current ? 'sso.on' : 'sso.off')}
        </p>
      )}
      <div className="rounded-lg border border-gray-200 bg-gray-50 p-3 text-sm dark:border-gray-800 dark:bg-gray-900">
        <span className="block font-medium text-gray-700 dark:text-gray-300">{t('sso.redirectUri')}</span>
        <code className="break-all text-gray-900 dark:text-gray-100" data-testid="sso-redirect-uri">
          {redirectUri}
        </code>
      </div>
      {notice ? (
        <p
          role="status"
          className={`text-sm ${notice.ok ? 'text-green-700 dark:text-green-300' : 'text-red-700 dark:text-red-300'}`}
          data-testid="sso-notice"
        >
          {notice.text}
        </p>
      ) : null}
      {settings.isLoading ? null : settings.error ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {errorMessage(settings.error) ?? t('sso.loadFailed')}
        </p>
      ) : (
        <SsoSettingsForm
          key={`${companyId}:${current?.updatedAt ?? 'none'}`}
          companyId={companyId}
          current={current}
          onSaved={() => setNotice({ ok: true, text: t('sso.saved') })}
        />
      )}
      <ConfirmDialog
        open={confirming}
        message={t('sso.removeConfirm')}
        confirmLabel={t('sso.remove')}
        cancelLabel={t('sso.cancel')}
        busy={removing.isLoading}
        onConfirm={turnOff}
        onCancel={() => setConfirming(false)}
      />
    </section>
  );
}
