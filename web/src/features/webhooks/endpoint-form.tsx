// Create or edit a webhook endpoint: its URL, the events it receives, a description, on or off.
// The contract's own schema checks the fields first; the server has the last word on the address
// (it resolves it) and names the field it refuses.
import type { ReactElement } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { WebhookCreateBody, type WebhookCreated, type WebhookDto } from '@earshot/contracts';
import { FormActions, FormDialog } from '../../components/form-parts';
import { FormField } from '../../components/form-field';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { formMessages } from '../../lib/form-messages';
import { placeFieldErrors } from '../../lib/server-errors';
import { useCreateWebhookMutation, useUpdateWebhookMutation, useWebhookEventTypesQuery } from './webhooks-api';
import { catalogue } from './i18n';

const FormSchema = z.object({
  url: WebhookCreateBody.shape.url,
  description: z.string().trim().max(500),
  events: z.array(z.string()).min(1, 'pickEvents'),
  enabled: z.boolean(),
});
type FormValues = z.input<typeof FormSchema>;
const FIELDS = ['url', 'description', 'events', 'enabled'] as const;

export function EndpointForm({
  companyId,
  endpoint,
  onClose,
  onCreated,
}: {
  /** The company a platform administrator chose (null: the caller's own). */
  companyId: string | null;
  endpoint: WebhookDto | null;
  onClose: () => void;
  onCreated: (created: WebhookCreated) => void;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const types = useWebhookEventTypesQuery();
  const [create, creating] = useCreateWebhookMutation();
  const [update, updating] = useUpdateWebhookMutation();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<FormValues, unknown, z.output<typeof FormSchema>>({
    resolver: zodResolver(FormSchema, formMessages(t)),
    defaultValues: {
      url: endpoint?.url ?? '',
      description: endpoint?.description ?? '',
      events: endpoint?.events ?? [],
      enabled: endpoint?.enabled ?? true,
    },
  });

  const submit = async (values: z.output<typeof FormSchema>) => {
    try {
      if (endpoint) await update({ id: endpoint.id, body: values }).unwrap();
      else onCreated(await create({ ...values, ...(companyId ? { companyId } : {}) }).unwrap());
      onClose();
    } catch (error) {
      if (!placeFieldErrors(error, FIELDS, setError))
        setError('root', { type: 'server', message: errorMessage(error) ?? t('webhooks.failed') });
    }
  };

  return (
    <FormDialog title={t(endpoint ? 'webhooks.edit' : 'webhooks.add')} onClose={onClose} testId="webhook-form">
      <form noValidate className="flex flex-col gap-4" onSubmit={(event) => void handleSubmit(submit)(event)}>
        <FormField label={t('webhooks.url')} hint={t('webhooks.urlHint')} error={errors.url?.message}>
          <input
            inputMode="url"
            autoComplete="off"
            placeholder="https://crm.example.com/earshot"
            {...register('url')}
          />
        </FormField>
        <FormField label={t('webhooks.description')} error={errors.description?.message}>
          <input autoComplete="off" maxLength={500} {...register('description')} />
        </FormField>
        <fieldset>
          <legend className="mb-1.5 text-sm font-medium text-gray-700 dark:text-gray-300">
            {t('webhooks.events')}
          </legend>
          <div className="grid gap-2 sm:grid-cols-2">
            {(types.data ?? []).map((type) => (
              <label key={type.type} className="flex items-start gap-2 text-sm" title={type.description}>
                <input type="checkbox" value={type.type} className="mt-0.5" {...register('events')} />
                <span>
                  <span className="font-mono">{type.type}</span>
                  <span className="block text-xs text-gray-500 dark:text-gray-400">{type.description}</span>
                </span>
              </label>
            ))}
          </div>
          {errors.events?.message ? (
            <p role="alert" className="mt-1 text-sm text-red-600 dark:text-red-400">
              {t(`webhooks.${errors.events.message}`, { defaultValue: errors.events.message })}
            </p>
          ) : null}
        </fieldset>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" {...register('enabled')} />
          {t('webhooks.enabled')}
        </label>
        <FormActions
          busy={creating.isLoading || updating.isLoading}
          saveLabel={t('webhooks.save')}
          cancelLabel={t('webhooks.cancel')}
          onCancel={onClose}
          message={errors.root?.message ?? null}
        />
      </form>
    </FormDialog>
  );
}
