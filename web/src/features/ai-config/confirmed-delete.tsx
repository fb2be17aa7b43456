import type { ReactElement } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { useFeatureTranslation } from '../../i18n/feature';
import { catalogue } from './i18n';

export function DeleteConfirm({
  open,
  message,
  busy,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  message: string;
  busy: boolean;
  onConfirm: () => Promise<void>;
  onCancel: () => void;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  return (
    <ConfirmDialog
      open={open}
      message={message}
      confirmLabel={t('aiConfig.delete')}
      cancelLabel={t('aiConfig.cancel')}
      busy={busy}
      onConfirm={() => void onConfirm()}
      onCancel={onCancel}
    />
  );
}
