// What the row actions do once confirmed: each calls the API and reports with a toast; a password
// reset hands its one-time password to the page. Invited users get resend and revoke instead.
import { useState } from 'react';
import type { UserDetailDto } from '@earshot/contracts';
import type { Toast } from '../../components/toast';
import { errorMessage } from '../../lib/api';
import {
  useDeleteUserMutation,
  useResendInvitationMutation,
  useResetPasswordMutation,
  useResetTwoStepMutation,
  useRevokeInvitationMutation,
  useUpdateUserMutation,
} from './users-api';

export type ConfirmKind = 'delete' | 'resetPassword' | 'resetTwoStep' | 'disable' | 'revokeInvitation';

export function useUserActions(
  t: (key: string, values?: Record<string, string>) => string,
  show: (toast: Omit<Toast, 'id'>) => void,
  onSecret: (secret: { email: string; password: string }) => void,
) {
  const [confirming, setConfirming] = useState<{ kind: ConfirmKind; user: UserDetailDto } | null>(null);
  const [update, updating] = useUpdateUserMutation();
  const [remove, removing] = useDeleteUserMutation();
  const [resetPassword, resettingPassword] = useResetPasswordMutation();
  const [resetTwoStep, resettingTwoStep] = useResetTwoStepMutation();
  const [resendInvitation, resending] = useResendInvitationMutation();
  const [revokeInvitation, revoking] = useRevokeInvitationMutation();
  const busy =
    updating.isLoading ||
    removing.isLoading ||
    resettingPassword.isLoading ||
    resettingTwoStep.isLoading ||
    resending.isLoading ||
    revoking.isLoading;

  const failed = (error: unknown) =>
    show({ kind: 'error', title: t('users.toast.failed'), detail: errorMessage(error) });

  const enable = async (user: UserDetailDto) => {
    try {
      await update({ id: user._id, body: { status: 'active' } }).unwrap();
      show({ kind: 'success', title: t('users.toast.enabled') });
    } catch (error) {
      failed(error);
    }
  };

  /** A new link by e-mail: nothing is lost (the old link just stops working), so no confirmation. */
  const resend = async (user: UserDetailDto) => {
    try {
      await resendInvitation(user._id).unwrap();
      show({ kind: 'success', title: t('users.toast.invitationResent', { email: user.email }) });
    } catch (error) {
      failed(error);
    }
  };

  const confirm = async () => {
    if (!confirming) return;
    const { kind, user } = confirming;
    try {
      if (kind === 'delete') {
        await remove(user._id).unwrap();
        show({ kind: 'success', title: t('users.toast.deleted') });
      } else if (kind === 'disable') {
        await update({ id: user._id, body: { status: 'disabled' } }).unwrap();
        show({ kind: 'success', title: t('users.toast.disabled') });
      } else if (kind === 'revokeInvitation') {
        await revokeInvitation(user._id).unwrap();
        show({ kind: 'success', title: t('users.toast.invitationRevoked') });
      } else if (kind === 'resetTwoStep') {
        await resetTwoStep(user._id).unwrap();
        show({ kind: 'success', title: t('users.toast.twoStepReset') });
      } else {
        const { temporaryPassword } = await resetPassword(user._id).unwrap();
        onSecret({ email: user.email, password: temporaryPassword });
      }
    } catch (error) {
      failed(error);
    }
    setConfirming(null);
  };

  return {
    confirming,
    ask: (kind: ConfirmKind, user: UserDetailDto) => setConfirming({ kind, user }),
    cancel: () => setConfirming(null),
    confirm,
    enable,
    resend,
    busy,
    failed,
  };
}
