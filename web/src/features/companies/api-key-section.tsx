// The company's API key: masked when it exists; generating or rotating shows the new key once
// (with Copy); rotating and revoking ask first, since integrations using the key stop at once.
import { useState, type ReactElement } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { buttonClass, inputClass } from '../../components/form-parts';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { useRevokeApiKeyMutation, useRotateApiKeyMutation } from './companies-api';
import { catalogue } from './i18n';

interface ApiKeySectionProps {
  companyId: string;
  /** Masked (****abcd) or null. */
  masked: string | null;
  /** A key the server just gave (on create): shown once. */
  fresh: string | null;
  onResult: (ok: boolean, title: string, detail?: string | null) => void;
}

export function ApiKeySection({ companyId, masked, fresh, onResult }: ApiKeySectionProps): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const [rotate, rotating] = useRotateApiKeyMutation();
  const [revoke, revoking] = useRevokeApiKeyMutation();
  const [shown, setShown] = useState<string | null>(fresh);
  const [current, setCurrent] = useState<string | null>(masked);
  const [asking, setAsking] = useState<'rotate' | 'revoke' | null>(null);
  const [copied, setCopied] = useState(false);

  const run = async (action: 'rotate' | 'revoke') => {
    if (action === 'rotate') {
      const answer = await rotate(companyId);
      if ('error' in answer) return onResult(false, t('companies.apiKey.failed'), errorMessage(answer.error));
      setShown(answer.data.apiKey);
      setCurrent(`****${answer.data.apiKey.slice(-4)}`);
      setCopied(false);
    } else {
      const answer = await revoke(companyId);
      if ('error' in answer) return onResult(false, t('companies.apiKey.failed'), errorMessage(answer.error));
      setShown(null);
      setCurrent(null);
      onResult(true, t('companies.apiKey.revoked'));
    }
  };

  const copy = async () => {
    if (!shown) return;
    await navigator.clipboard?.writeText(shown).catch(() => undefined);
    setCopied(true);
  };

  return (
    <div className="space-y-3" data-testid="api-key-section">
      <p className="text-sm text-gray-700 dark:text-gray-300" data-testid="api-key-current">
        {current ? t('companies.apiKey.current', { key: current }) : t('companies.apiKey.none')}
      </p>
      {shown && (
        <div className="rounded-lg border border-amber-300 bg-amber-50 p-3 dark:border-amber-800 dark:bg-amber-950/40">
          <label
            className="mb-1 block text-sm font-medium text-amber-900 dark:text-amber-100"
            htmlFor={`key-${companyId}`}
          >
            {t('companies.apiKey.newKey')}
          </label>
          <div className="flex gap-2">
            <input
              id={`key-${companyId}`}
              readOnly
              value={shown}
              className={`${inputClass} font-mono`}
              data-testid="api-key-value"
              onFocus={(event) => event.target.select()}
            />
            <button type="button" className={buttonClass.secondary} onClick={() => void copy()}>
              {copied ? t('companies.apiKey.copied') : t('companies.apiKey.copy')}
            </button>
          </div>
          <p className="mt-1 text-xs text-amber-900 dark:text-amber-100">{t('companies.apiKey.shownOnce')}</p>
        </div>
      )}
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          className={buttonClass.secondary}
          disabled={rotating.isLoading}
          onClick={() => (current ? setAsking('rotate') : void run('rotate'))}
        >
          {current ? t('companies.apiKey.rotate') : t('companies.apiKey.generate')}
        </button>
        {current && (
          <button
            type="button"
            className={buttonClass.secondary}
            disabled={revoking.isLoading}
            onClick={() => setAsking('revoke')}
          >
            {t('companies.apiKey.revoke')}
          </button>
        )}
      </div>
      <ConfirmDialog
        open={asking !== null}
        message={asking === 'revoke' ? t('companies.apiKey.confirmRevoke') : t('companies.apiKey.confirmRotate')}
        confirmLabel={asking === 'revoke' ? t('companies.apiKey.revoke') : t('companies.apiKey.rotate')}
        cancelLabel={t('companies.cancel')}
        onConfirm={() => {
          if (asking) void run(asking);
          setAsking(null);
        }}
        onCancel={() => setAsking(null)}
      />
    </div>
  );
}
