import { useId, useState, type FormEvent, type ReactElement } from 'react';
import { errorMessage } from '../../lib/api';
import { useFeatureTranslation } from '../../i18n/feature';
import { useCreateModelMutation, useProviderModelsQuery, useUpdateModelMutation } from './ai-config-api';
import { catalogue } from './i18n';
import { Checkbox, Field, FormActions, FormDialog, inputClass } from '../../components/form-parts';
import { MODEL_PURPOSES, type AiModel, type AiProvider, type ModelBody, type ModelPurpose } from './model';
import { formErrorsOf, NO_ERRORS } from '../../lib/form-errors';

/** The provider's own model list as the name field's hint (typing stays possible: a list may be partial). */
function useModelChoices(providerId: string): { hint: string; ids: string[] } {
  const { t } = useFeatureTranslation(catalogue);
  const listed = useProviderModelsQuery(providerId, { skip: !providerId });
  if (listed.isFetching) return { hint: t('providerModels.loading'), ids: [] };
  if (listed.error) return { hint: t('providerModels.failed', { message: errorMessage(listed.error) ?? '' }), ids: [] };
  const ids = (listed.data ?? []).map((model) => model.id);
  return { hint: ids.length > 0 ? t('providerModels.listed', { count: ids.length }) : t('providerModels.none'), ids };
}

/** Create or edit a model of a provider. */
export function ModelForm({
  model,
  providers,
  onClose,
}: {
  model: AiModel | null;
  providers: AiProvider[];
  onClose: () => void;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const [providerId, setProviderId] = useState(model?.providerId ?? providers[0]?._id ?? '');
  const [name, setName] = useState(model?.name ?? '');
  const [label, setLabel] = useState(model && model.label !== model.name ? model.label : '');
  const [purpose, setPurpose] = useState<ModelPurpose>(model?.purpose ?? 'chat');
  const [isDefault, setIsDefault] = useState(model?.isDefault ?? false);
  const [contextSize, setContextSize] = useState(model?.contextSize ? String(model.contextSize) : '');
  const [enabled, setEnabled] = useState(model?.enabled ?? true);
  const [errors, setErrors] = useState(NO_ERRORS);
  const [create, creating] = useCreateModelMutation();
  const [update, updating] = useUpdateModelMutation();
  const choices = useModelChoices(providerId);
  const listId = useId();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const body: ModelBody = {
      providerId,
      name: name.trim(),
      purpose,
      isDefault,
      contextSize: contextSize.trim() ? Number(contextSize) : null,
      enabled,
      ...(label.trim() ? { label: label.trim() } : {}),
    };
    try {
      if (model) await update({ id: model._id, body }).unwrap();
      else await create(body).unwrap();
      onClose();
    } catch (error) {
      setErrors(formErrorsOf(error, (message) => (/name/i.test(message) ? 'name' : null)));
    }
  };

  return (
    <FormDialog title={t(model ? 'aiConfig.models.edit' : 'aiConfig.models.add')} onClose={onClose}>
      <form className="flex flex-col gap-4" onSubmit={(event) => void onSubmit(event)} data-testid="model-form">
        <Field label={t('aiConfig.models.provider')} error={errors.fields.providerId}>
          <select
            className={inputClass}
            value={providerId}
            onChange={(event) => setProviderId(event.target.value)}
            required
          >
            {providers.map((provider) => (
              <option key={provider._id} value={provider._id}>
                {provider.name}
              </option>
            ))}
          </select>
        </Field>
        <Field
          label={t('aiConfig.models.name')}
          error={errors.fields.name}
          hint={`${t('aiConfig.models.nameHint')} ${choices.hint}`}
        >
          <input
            className={inputClass}
            value={name}
            onChange={(event) => setName(event.target.value)}
            required
            maxLength={200}
            list={listId}
            autoComplete="off"
            data-testid="model-name"
          />
        </Field>
        <datalist id={listId} data-testid="provider-models">
          {choices.ids.map((id) => (
            <option key={id} value={id} />
          ))}
        </datalist>
        <Field label={t('aiConfig.models.label')} error={errors.fields.label} hint={t('aiConfig.models.labelHint')}>
          <input
            className={inputClass}
            value={label}
            onChange={(event) => setLabel(event.target.value)}
            maxLength={120}
          />
        </Field>
        <Field label={t('aiConfig.models.purpose')} error={errors.fields.purpose}>
          <select
            className={inputClass}
            value={purpose}
            onChange={(event) => setPurpose(event.target.value as ModelPurpose)}
          >
            {MODEL_PURPOSES.map((value) => (
              <option key={value} value={value}>
                {t(`aiConfig.purposes.${value}`)}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t('aiConfig.models.contextSize')} error={errors.fields.contextSize}>
          <input
            className={inputClass}
            type="number"
            min={256}
            step={1}
            value={contextSize}
            onChange={(event) => setContextSize(event.target.value)}
          />
        </Field>
        <Checkbox
          label={t('aiConfig.models.isDefault')}
          checked={isDefault}
          onChange={setIsDefault}
          testId="model-default"
        />
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
