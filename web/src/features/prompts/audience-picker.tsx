import type { ReactElement } from 'react';
import { ChecklistPicker } from '../../components/checklist-picker';
import { useFeatureTranslation } from '../../i18n/feature';
import { catalogue } from './i18n';
import type { Option } from './prompts-api';

/** Companies or people a prompt is shared with: the shared checklist in the prompts' words. */
export function AudiencePicker(props: {
  label: string;
  options: Option[];
  value: string[];
  onChange: (ids: string[]) => void;
  error?: string;
  loading: boolean;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  return (
    <ChecklistPicker
      {...props}
      texts={{
        filter: t('form.filter'),
        loading: t('form.loading'),
        noOptions: t('form.noOptions'),
        chosen: (count) => t('form.chosen', { count }),
      }}
    />
  );
}
