// A company's data policies, set by the platform administrator: redaction mode,
// retention and encryption at rest (which, once on, stays on: the server refuses turning it off).
// Keeping unredacted originals needs encryption (the server refuses it without): its switch is
// usable only while encryption is ticked.
import { useEffect, useState, type ReactElement } from 'react';
import type { CompanyPolicies, RetentionPolicy } from '@earshot/contracts';
import {
  REDACTION_MODES,
  RETENTION_MAXIMUM_DAYS,
  RETENTION_MINIMUM_DAYS,
  type RedactionMode,
} from '@earshot/contracts/constants';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { buttonClass, Field, FormField } from '../../components/form-field';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { serverFieldErrors } from '../../lib/server-errors';
import { useCompanyPoliciesQuery, useSaveCompanyPoliciesMutation } from './companies-api';
import type { Notify } from './model';
import { EncryptionProgress } from './policies-encryption';
import { useCompanyEncryptionQuery } from './policies-encryption-api';
import { catalogue } from './policies-i18n';

const RETENTION = ['recordingsDays', 'chatsDays', 'auditDays'] as const satisfies readonly (keyof RetentionPolicy)[];
type Days = Record<keyof RetentionPolicy, string>;

/** The retention fields whose text is not whole days within the contract's range (blank is forever). */
function badDays(days: Days): Array<keyof RetentionPolicy> {
  return RETENTION.filter((key) => {
    const text = days[key].trim();
    if (text === '') return false;
    const value = Number(text);
    return !/^\d+$/.test(text) || value < RETENTION_MINIMUM_DAYS[key] || value > RETENTION_MAXIMUM_DAYS;
  });
}

/** The retention fields a refusal of the server names ('body.retention.auditDays'). */
function refusedDays(error: unknown): Array<keyof RetentionPolicy> {
  return serverFieldErrors(error).flatMap(({ field }) => {
    const key = field.split('.')[1];
    return field.startsWith('retention.') && RETENTION.includes(key as keyof RetentionPolicy)
      ? [key as keyof RetentionPolicy]
      : [];
  });
}

const daysText = (retention: RetentionPolicy): Days => ({
  recordingsDays: retention.recordingsDays?.toString() ?? '',
  chatsDays: retention.chatsDays?.toString() ?? '',
  auditDays: retention.auditDays?.toString() ?? '',
});

export function PoliciesSection({
  companyId,
  notify,
  headingId,
}: {
  companyId: string;
  notify: Notify;
  headingId: string;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const { data, isError } = useCompanyPoliciesQuery(companyId);
  const [save, saving] = useSaveCompanyPoliciesMutation();
  const [redaction, setRedaction] = useState<RedactionMode>('off');
  const [days, setDays] = useState<Days>({ recordingsDays: '', chatsDays: '', auditDays: '' });
  const [encryption, setEncryption] = useState(false);
  const [keepOriginal, setKeepOriginal] = useState(false);
  const [wrong, setWrong] = useState<ReadonlyArray<keyof RetentionPolicy>>([]);
  const [confirming, setConfirming] = useState(false);
  // Without a master key the server refuses encryption: the switch says so instead of offering it.
  const masterKey = useCompanyEncryptionQuery(companyId).data?.masterKeyConfigured;
  useEffect(() => {
    if (!data) return;
    setRedaction(data.redaction);
    setDays(daysText(data.retention));
    setEncryption(data.encryption);
    setKeepOriginal(data.keepOriginal);
  }, [data]);

  const heading = (
    <h3 id={headingId} className="text-sm font-semibold text-gray-900 dark:text-white">
      {t('policies.title')}
    </h3>
  );
  if (isError)
    return (
      <>
        {heading}
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {t('policies.loadFailed')}
        </p>
      </>
    );

  const submit = async () => {
    // Checked here with the contract's limits, so the person reads what to type next to the field
    // instead of the server's validation text in a toast.
    const invalid = badDays(days);
    setWrong(invalid);
    if (invalid.length > 0) return;
    const retention = Object.fromEntries(
      RETENTION.map((key) => [key, days[key].trim() === '' ? null : Number(days[key])]),
    ) as RetentionPolicy;
    const body: CompanyPolicies = { redaction, keepOriginal: keepOriginal && encryption, encryption, retention };
    try {
      await save({ id: companyId, body }).unwrap();
      notify(true, t('policies.saved'));
    } catch (error) {
      const refused = refusedDays(error);
      setWrong(refused);
      notify(false, t('policies.failed'), refused.length > 0 ? null : errorMessage(error));
    }
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
      className="flex flex-col gap-3"
      data-testid="policies-form"
    >
      {heading}
      <FormField label={t('policies.redaction')} hint={t('policies.redactionHint')}>
        <select
          value={redaction}
          onChange={(event) => setRedaction(event.target.value as RedactionMode)}
          data-testid="policies-redaction"
        >
          {REDACTION_MODES.map((mode) => (
            <option key={mode} value={mode}>
              {t(`policies.modes.${mode}`)}
            </option>
          ))}
        </select>
      </FormField>
      {RETENTION.map((key) => (
        <FormField
          key={key}
          label={t(`policies.${key}`)}
          hint={t('policies.forever')}
          error={
            wrong.includes(key)
              ? t('policies.daysRange', { min: RETENTION_MINIMUM_DAYS[key], max: RETENTION_MAXIMUM_DAYS })
              : undefined
          }
        >
          <input
            inputMode="numeric"
            autoComplete="off"
            value={days[key]}
            onChange={(event) => setDays({ ...days, [key]: event.target.value })}
            data-testid={`policies-${key}`}
          />
        </FormField>
      ))}
      <Field
        label={t('policies.encryption')}
        hint={masterKey === false && !data?.encryption ? t('policies.noMasterKey') : t('policies.encryptionHint')}
      >
        <input
          type="checkbox"
          checked={encryption}
          disabled={(data?.encryption ?? true) || masterKey !== true}
          // Irreversible: ticking asks first; unticking before saving needs no question.
          onChange={(event) => (event.target.checked ? setConfirming(true) : setEncryption(false))}
          className="size-4"
          data-testid="policies-encryption"
        />
      </Field>
      <ConfirmDialog
        open={confirming}
        message={t('policies.confirmEncryption')}
        confirmLabel={t('policies.confirmEncryptionYes')}
        cancelLabel={t('policies.cancel')}
        onConfirm={() => {
          setEncryption(true);
          setConfirming(false);
        }}
        onCancel={() => setConfirming(false)}
      />
      <EncryptionProgress companyId={companyId} />
      <Field label={t('policies.keepOriginal')} hint={t('policies.keepOriginalHint')}>
        <input
          type="checkbox"
          checked={keepOriginal && encryption}
          disabled={!data || !encryption}
          onChange={(event) => setKeepOriginal(event.target.checked)}
          className="size-4"
          data-testid="policies-keepOriginal"
        />
      </Field>
      <div>
        <button type="submit" disabled={saving.isLoading || !data} className={buttonClass.primary}>
          {t('policies.save')}
        </button>
      </div>
    </form>
  );
}
