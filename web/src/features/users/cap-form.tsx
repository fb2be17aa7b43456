import type { ReactElement } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { UserCapBody, type AdminUserDto } from '@earshot/contracts';
import { DialogButtons } from '../../components/form-dialog';
import { FormField } from '../../components/form-field';
import { useFeatureTranslation } from '../../i18n/feature';
import { optionalPositiveCreditsText } from '../../entities/credits';
import { formMessages } from '../../lib/form-messages';
import { placeFieldErrors } from '../../lib/server-errors';
import { catalogue as capCatalogue } from './cap-i18n';
import { catalogue } from './i18n';
import { useSetUserCapMutation } from './users-api';

/** Typed as text: blank → null (no cap), else the contract's positive amount. */
const CapFormSchema = z.object({
  monthlyCredits: optionalPositiveCreditsText('invalid').pipe(UserCapBody.shape.monthlyCredits),
});

/** The person's monthly credits cap (ADMIN of their company, HOST_ADMIN). */
export function CapForm({
  user,
  onSaved,
  onCancel,
  onFailed,
}: {
  user: AdminUserDto;
  onSaved: () => void;
  onCancel: () => void;
  onFailed: (error: unknown) => void;
}): ReactElement {
  const { t } = useFeatureTranslation(capCatalogue, catalogue);
  const [save, saving] = useSetUserCapMutation();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<z.input<typeof CapFormSchema>, unknown, z.output<typeof CapFormSchema>>({
    resolver: zodResolver(CapFormSchema, formMessages(t)),
    defaultValues: { monthlyCredits: user.monthlyCredits === null ? '' : String(user.monthlyCredits) },
  });

  const submit = async (body: z.output<typeof CapFormSchema>) => {
    try {
      await save({ id: user._id, body }).unwrap();
      onSaved();
    } catch (error) {
      if (!placeFieldErrors(error, ['monthlyCredits'], setError)) onFailed(error);
    }
  };

  const problem = errors.monthlyCredits?.message;
  return (
    <form
      noValidate
      onSubmit={(event) => void handleSubmit(submit)(event)}
      className="flex flex-col gap-4"
      data-testid="cap-form"
    >
      <p className="text-sm text-gray-600 dark:text-gray-400">{t('cap.intro')}</p>
      <FormField
        label={t('cap.label')}
        hint={t('cap.hint')}
        error={problem ? t(`cap.${problem}`, { defaultValue: problem }) : undefined}
      >
        <input inputMode="decimal" autoComplete="off" {...register('monthlyCredits')} />
      </FormField>
      <DialogButtons
        cancelLabel={t('cap.cancel')}
        submitLabel={t('cap.save')}
        busy={saving.isLoading}
        onCancel={onCancel}
      />
    </form>
  );
}
