import type { ReactElement } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { ClientCreateBody, ClientDto, ClientSaved } from '@earshot/contracts';
import { DialogButtons } from '../../components/form-dialog';
import { FormField } from '../../components/form-field';
import { useFeatureTranslation } from '../../i18n/feature';
import { formMessages } from '../../lib/form-messages';
import { placeFieldErrors } from '../../lib/server-errors';
import { useCreateClientMutation, useUpdateClientMutation, type Option } from './clients-api';
import { catalogue } from './i18n';
import { CLIENT_FIELDS, ClientFormSchema, formValues, type ClientFormInput } from './model';

/**
 * Create (no `client`) or edit a client. `owners` is the owner picker's choices, or null when the
 * caller may not list users (a CALLER): the field is then left out and an edit keeps the owner.
 */
export function ClientForm({
  client,
  owners,
  onSaved,
  onCancel,
  onFailed,
}: {
  client: ClientDto | null;
  owners: Option[] | null;
  /** The client as stored: `redacted` says what the company's redaction hid in it (the caller tells the person). */
  onSaved: (client: ClientSaved) => void;
  onCancel: () => void;
  onFailed: (error: unknown) => void;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const [create, creating] = useCreateClientMutation();
  const [update, updating] = useUpdateClientMutation();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<ClientFormInput, unknown, ClientCreateBody>({
    resolver: zodResolver(ClientFormSchema, formMessages(t)),
    defaultValues: formValues(client),
  });

  const submit = async (body: ClientCreateBody) => {
    try {
      onSaved(client ? await update({ id: client._id, body }).unwrap() : await create(body).unwrap());
    } catch (error) {
      if (!placeFieldErrors(error, CLIENT_FIELDS, setError)) onFailed(error);
    }
  };
  const text = (field: Exclude<(typeof CLIENT_FIELDS)[number], 'notes' | 'ownerId'>, type = 'text') => (
    <FormField
      label={t(`clients.form.${field}`)}
      error={errors[field]?.message}
      hint={field === 'externalId' ? t('clients.form.externalIdHint') : undefined}
    >
      <input type={type} autoComplete="off" {...register(field)} />
    </FormField>
  );

  return (
    <form
      noValidate
      onSubmit={(event) => void handleSubmit(submit)(event)}
      className="flex flex-col gap-4"
      data-testid="client-form"
    >
      {text('name')}
      <div className="grid gap-4 sm:grid-cols-2">
        {text('organisation')}
        {text('externalId')}
        {text('email', 'email')}
        {text('phone', 'tel')}
      </div>
      {owners && (
        <FormField label={t('clients.form.owner')} error={errors.ownerId?.message}>
          <select {...register('ownerId')}>
            <option value="">{t('clients.form.noOwner')}</option>
            {owners.map((owner) => (
              <option key={owner._id} value={owner._id}>
                {owner.name}
              </option>
            ))}
          </select>
        </FormField>
      )}
      <FormField label={t('clients.form.notes')} error={errors.notes?.message}>
        <textarea rows={4} {...register('notes')} />
      </FormField>
      <DialogButtons
        cancelLabel={t('clients.form.cancel')}
        submitLabel={client ? t('clients.form.save') : t('clients.form.createSubmit')}
        busy={creating.isLoading || updating.isLoading}
        onCancel={onCancel}
      />
    </form>
  );
}
