import { useState, type FormEvent, type ReactElement } from 'react';
import type { TwoStepSetupResponse } from '@earshot/contracts';
import { FormField, buttonClass } from '../../components/form-field';
import { useFeatureTranslation } from '../../i18n/feature';
import { useDisableTwoStepMutation, useEnableTwoStepMutation, useSetupTwoStepMutation } from './profile-api';
import { catalogue } from './i18n';
import { OutcomeLine } from './outcome-line';
import { QrCode } from './qr-code';
import { RecoveryCodes } from './recovery-codes';
import { SectionCard } from './section-card';
import { useSectionOutcome } from './use-form-state';

/**
 * Two-step sign-in: off → set up (QR code and key) → confirm with a code → the recovery codes,
 * once → on; on → off with a code.
 */
export function TwoStepSection({ enabled }: { enabled: boolean }): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const [setup, setupState] = useSetupTwoStepMutation();
  const [enable, enableState] = useEnableTwoStepMutation();
  const [disable, disableState] = useDisableTwoStepMutation();
  const [pending, setPending] = useState<TwoStepSetupResponse | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState('');
  const section = useSectionOutcome(t('profile.failed'));

  const start = async () => {
    section.reset();
    try {
      setPending(await setup().unwrap());
    } catch (error) {
      section.failed(error);
    }
  };
  const confirm = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const answer = await enable({ code: code.trim() }).unwrap();
      setPending(null);
      setCode('');
      setRecoveryCodes(answer.recoveryCodes);
      section.reset();
    } catch (error) {
      section.failed(error);
    }
  };
  const turnOff = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await disable({ code: code.trim() }).unwrap();
      setCode('');
      section.succeeded(t('profile.twoStep.disabled'));
    } catch (error) {
      section.failed(error);
    }
  };

  const codeField = (label: string, hint?: string) => (
    <FormField label={label} hint={hint} error={section.errors.fields.code}>
      <input
        inputMode={hint ? 'numeric' : 'text'}
        autoComplete="one-time-code"
        value={code}
        onChange={(event) => setCode(event.target.value)}
        data-testid="two-step-code"
        className="max-w-xs"
      />
    </FormField>
  );

  let body: ReactElement;
  if (recoveryCodes) {
    body = <RecoveryCodes codes={recoveryCodes} onDone={() => setRecoveryCodes(null)} />;
  } else if (enabled) {
    body = (
      <form noValidate onSubmit={(event) => void turnOff(event)} className="flex flex-col gap-4">
        <p className="text-sm text-gray-700 dark:text-gray-300" data-testid="two-step-status">
          {t('profile.twoStep.on')}
        </p>
        <p className="text-sm text-gray-600 dark:text-gray-400">{t('profile.twoStep.disableIntro')}</p>
        {codeField(t('profile.twoStep.disableCode'))}
        <div>
          <button
            type="submit"
            className={buttonClass.secondary}
            disabled={disableState.isLoading}
            data-testid="two-step-disable"
          >
            {t('profile.twoStep.disable')}
          </button>
        </div>
      </form>
    );
  } else if (pending) {
    body = (
      <form noValidate onSubmit={(event) => void confirm(event)} className="flex flex-col gap-4">
        <p className="text-sm text-gray-700 dark:text-gray-300">{t('profile.twoStep.scan')}</p>
        <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
          <QrCode value={pending.otpauthUrl} label={t('profile.twoStep.qr')} />
          <div className="min-w-0">
            <p className="text-sm font-medium text-gray-700 dark:text-gray-300">{t('profile.twoStep.secret')}</p>
            <code
              className="block font-mono text-sm break-all text-gray-900 dark:text-gray-100"
              data-testid="two-step-secret"
            >
              {pending.secret}
            </code>
          </div>
        </div>
        {codeField(t('profile.twoStep.code'), t('profile.twoStep.codeHint'))}
        <div className="flex flex-wrap gap-2">
          <button
            type="submit"
            className={buttonClass.primary}
            disabled={enableState.isLoading}
            data-testid="two-step-confirm"
          >
            {t('profile.twoStep.confirm')}
          </button>
          <button
            type="button"
            className={buttonClass.secondary}
            onClick={() => {
              setPending(null);
              section.reset();
            }}
          >
            {t('profile.twoStep.cancel')}
          </button>
        </div>
      </form>
    );
  } else {
    body = (
      <>
        <p className="text-sm text-gray-700 dark:text-gray-300" data-testid="two-step-status">
          {t('profile.twoStep.off')}
        </p>
        <div>
          <button
            type="button"
            className={buttonClass.primary}
            onClick={() => void start()}
            disabled={setupState.isLoading}
            data-testid="two-step-start"
          >
            {t('profile.twoStep.start')}
          </button>
        </div>
      </>
    );
  }

  return (
    <SectionCard id="two-step" title={t('profile.twoStep.title')}>
      {body}
      <OutcomeLine outcome={section.outcome} testId="two-step-outcome" />
    </SectionCard>
  );
}
