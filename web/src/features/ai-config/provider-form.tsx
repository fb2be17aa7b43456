import { useState, type FormEvent, type ReactElement } from 'react';
import { useCreateProviderMutation, useUpdateProviderMutation } from './ai-config-api';
import { Checkbox, Field, FormActions, FormDialog, inputClass } from '../../components/form-parts';
import type { AiProvider, ProviderBody } from './model';
import { formErrorsOf, NO_ERRORS } from '../../lib/form-errors';
import { useFeatureTranslation } from '../../i18n/feature';
import { catalogue } from './i18n';

/** The server's refusals of an address name no field; they are about the base URL. */
const aboutBaseUrl = (message: string) => (/address|url/i.test(message) ? 'baseUrl' : null);

/** Create or edit a provider. The API key is write-only: blank keeps the saved one. */
export function ProviderForm({
  provider,
  onClose,
}: {
  provider: AiProvider | null;
  onClose: () => void;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const [name, setName] = useState(provider?.name ?? '');
  const [baseUrl, setBaseUrl] = useState(provider?.baseUrl ?? '');
  const [apiKey, setApiKey] = useState('');
  const [removeKey, setRemoveKey] = useState(false);
  const [enabled, setEnabled] = useState(provider?.enabled ?? true);
  const [errors, setErrors] = useState(NO_ERRORS);
  const [create, creating] = useCreateProviderMutation();
  const [update, updating] = useUpdateProviderMutation();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const body: ProviderBody = { name: name.trim(), baseUrl: baseUrl.trim(), enabled };
    if (removeKey) body.apiKey = null;
    else if (apiKey.trim()) body.apiKey = apiKey.trim();
    try {
      if (provider) await update({ id: provider._id, body }).unwrap();
      else await create(body).unwrap();
      onClose();
    } catch (error) {
      setErrors(formErrorsOf(error, aboutBaseUrl));
    }
  };

  return (
    <FormDialog title={t(provider ? 'aiConfig.providers.edit' : 'aiConfig.providers.add')} onClose={onClose}>
      <form className="flex flex-col gap-4" onSubmit={(event) => void onSubmit(event)} data-testid="provider-form">
        <Field label={t('aiConfig.providers.name')} error={errors.fields.name}>
          <input
            className={inputClass}
            value={name}
            onChange={(event) => setName(event.target.value)}
            required
            maxLength={120}
          />
        </Field>
        <Field
          label={t('aiConfig.providers.baseUrl')}
          error={errors.fields.baseUrl}
          hint={t('aiConfig.providers.baseUrlHint')}
        >
          <input
            className={inputClass}
            value={baseUrl}
            onChange={(event) => setBaseUrl(event.target.value)}
            required
            placeholder="https://api.openai.com/v1"
            inputMode="url"
          />
        </Field>
        <Field
          label={t('aiConfig.providers.apiKey')}
          error={errors.fields.apiKey}
          hint={
            provider?.hasApiKey
              ? t('aiConfig.providers.apiKeyKeep', { last4: provider.apiKeyLast4 ?? '' })
              : t('aiConfig.providers.apiKeyOptional')
          }
        >
          <input
            className={inputClass}
            type="password"
            autoComplete="off"
            value={apiKey}
            disabled={removeKey}
            onChange={(event) => setApiKey(event.target.value)}
          />
        </Field>
        {provider?.hasApiKey ? (
          <Checkbox label={t('aiConfig.providers.removeKey')} checked={removeKey} onChange={setRemoveKey} />
        ) : null}
        <Checkbox label={t('aiConfig.enabled')} checked={enabled} onChange={setEnabled} />
        <FormActions
          busy={creating.isLoading || updating.isLoading}
          saveLabel={t('aiConfig.save')}
          cancelLabel={t('aiConfig.cancel')}
          onCancel={onClose}
          message={errors.message}
        />
      </form>
    </FormDialog>
  );
}
