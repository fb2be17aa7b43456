import type { ReactElement } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { UserDetailDto } from '@earshot/contracts';
import { SETTABLE_USER_STATUSES } from '@earshot/contracts/constants';
import { DialogButtons } from '../../components/form-dialog';
import { FormField } from '../../components/form-field';
import { useFeatureTranslation } from '../../i18n/feature';
import { formMessages } from '../../lib/form-messages';
import { placeFieldErrors } from '../../lib/server-errors';
import { catalogue } from './i18n';
import { EditUserSchema, userRole, type EditUserInput, type EditUserValues } from './model';
import { useUpdateUserMutation, type RoleOption } from './users-api';

const FIELDS = ['firstName', 'lastName', 'role', 'status'] as const;

/** Names, role and status (not while invited) of an existing user (e-mail and company stay as they are). */
export function EditUserForm({
  user,
  roles,
  onSaved,
  onCancel,
  onFailed,
}: {
  user: UserDetailDto;
  roles: RoleOption[];
  onSaved: () => void;
  onCancel: () => void;
  onFailed: (error: unknown) => void;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const [update, updating] = useUpdateUserMutation();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<EditUserInput, unknown, EditUserValues>({
    resolver: zodResolver(EditUserSchema, formMessages(t)),
    defaultValues: {
      firstName: user.firstName,
      lastName: user.lastName,
      role: userRole(user),
      ...(user.status === 'invited' ? {} : { status: user.status }),
    },
  });

  const submit = async (body: EditUserValues) => {
    try {
      await update({ id: user._id, body }).unwrap();
      onSaved();
    } catch (error) {
      if (!placeFieldErrors(error, FIELDS, setError)) onFailed(error);
    }
  };

  return (
    <form
      noValidate
      onSubmit={(event) => void handleSubmit(submit)(event)}
      className="flex flex-col gap-4"
      data-testid="edit-user-form"
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label={t('users.form.firstName')} error={errors.firstName?.message}>
          <input autoComplete="off" {...register('firstName')} />
        </FormField>
        <FormField label={t('users.form.lastName')} error={errors.lastName?.message}>
          <input autoComplete="off" {...register('lastName')} />
        </FormField>
      </div>
      <FormField label={t('users.form.role')} error={errors.role?.message}>
        <select {...register('role')}>
          {roles.map((option) => (
            <option key={option.code} value={option.code}>
              {t(`roles.${option.code}`)}
            </option>
          ))}
        </select>
      </FormField>
      {user.status !== 'invited' && (
        <FormField label={t('users.form.status')} error={errors.status?.message}>
          <select {...register('status')}>
            {SETTABLE_USER_STATUSES.map((status) => (
              <option key={status} value={status}>
                {t(`users.status.${status}`)}
              </option>
            ))}
          </select>
        </FormField>
      )}
      <DialogButtons
        cancelLabel={t('users.form.cancel')}
        submitLabel={t('users.form.save')}
        busy={updating.isLoading}
        onCancel={onCancel}
      />
    </form>
  );
}
