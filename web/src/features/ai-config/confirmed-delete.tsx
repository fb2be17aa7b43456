import { useState, type ReactElement } from 'react';
import { errorMessage } from '../../lib/api';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { useFeatureTranslation } from '../../i18n/feature';
import { catalogue } from './i18n';

/** Delete after a yes/no question; a refusal (e.g. a provider that still has models) is kept to show. */
export function useConfirmedDelete<T extends { _id: string }>(remove: (id: string) => { unwrap: () => Promise<unknown> }) {
  const { t } = useFeatureTranslation(catalogue);
  const [target, setTarget] = useState<T | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const confirm = async () => {
    if (!target) return;
    try {
      await remove(target._id).unwrap();
      setFailure(null);
    } catch (error) {
      setFailure(errorMessage(error) ?? t('aiConfig.deleteFailed'));
    }
    setTarget(null);
  };
  return { target, ask: setTarget, cancel: () => setTarget(null), confirm, failure };
}

export function DeleteConfirm({ open, message, busy, onConfirm, onCancel }: { open: boolean; message: string; busy: boolean; onConfirm: () => Promise<void>; onCancel: () => void }): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  return (
    <ConfirmDialog open={open} message={message} confirmLabel={t('aiConfig.delete')} cancelLabel={t('aiConfig.cancel')} busy={busy} onConfirm={() => void onConfirm()} onCancel={onCancel} />
  );
}
