import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChatModels } from './model';

/** Shown only when there is a choice (more than one enabled chat model). '' = the default model. */
export function ModelPicker({
  models,
  value,
  onChange,
}: {
  models: ChatModels['models'];
  value: string;
  onChange: (id: string) => void;
}): ReactElement | null {
  const { t } = useTranslation();
  if (models.length < 2) return null;
  return (
    <label className="flex items-center gap-2 text-sm text-gray-700 dark:text-gray-300">
      {t('chat.model')}
      <select
        value={value}
        onChange={(event) => onChange(event.target.value)}
        data-testid="model-picker"
        className="h-9 rounded-lg border border-gray-300 bg-white px-2 text-sm text-gray-900 focus:border-brand-500 focus:outline-none dark:border-gray-700 dark:bg-gray-900 dark:text-white"
      >
        <option value="">{t('chat.defaultModel')}</option>
        {models.map((model) => (
          <option key={model._id} value={model._id}>
            {model.isDefault ? t('chat.defaultModelName', { name: model.name }) : model.name}
          </option>
        ))}
      </select>
    </label>
  );
}
