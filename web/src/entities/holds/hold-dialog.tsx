// Place or lift a legal hold on a recording, a client or a company: the reason is
// required both ways, checked by the contracts' HoldBody before anything is sent. A lazy chunk of
// its own, so the zod schema stays out of the pages until the dialog opens.
import { useState, type ReactElement } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { HOLD_REASON_MAX, HoldBody, type HoldDto } from '@earshot/contracts';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { formMessages } from '../../lib/form-messages';
import { DialogButtons, FormDialog } from '../../components/form-dialog';
import { FormField } from '../../components/form-field';
import { catalogue } from './hold-dialog-i18n';

export interface HoldDialogProps {
  /** Whether the object is held now: the dialog lifts a hold, or places one. */
  held: boolean;
  /** What is held, as the page names it (a recording's file name, a client's or company's name). */
  name: string;
  /** Sends PUT …/hold; rejects with the server's error. */
  save: (body: HoldBody) => Promise<HoldDto>;
  onDone: (hold: HoldDto) => void;
  onClose: () => void;
}

export default function HoldDialog({ held, name, save, onDone, onClose }: HoldDialogProps): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<HoldBody>({
    resolver: zodResolver(HoldBody, formMessages(t)),
    defaultValues: { hold: !held, reason: '' },
  });
  const submit = handleSubmit(async (body) => {
    setFailure(null);
    try {
      onDone(await save(body));
      onClose();
    } catch (error) {
      setFailure(errorMessage(error) ?? t('hold.failed'));
    }
  });
  return (
    <FormDialog title={t(held ? 'hold.liftTitle' : 'hold.placeTitle', { name })} onClose={onClose} testId="hold-dialog">
      <form noValidate onSubmit={(event) => void submit(event)} className="flex flex-col gap-4">
        <p className="text-sm text-gray-600 dark:text-gray-400">{t(held ? 'hold.liftIntro' : 'hold.placeIntro')}</p>
        <FormField label={t('hold.reason')} hint={t('hold.reasonHint')} error={errors.reason?.message}>
          <textarea rows={3} maxLength={HOLD_REASON_MAX} {...register('reason')} data-testid="hold-reason" />
        </FormField>
        {failure ? (
          <p
            role="alert"
            className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200"
            data-testid="hold-error"
          >
            {failure}
          </p>
        ) : null}
        <DialogButtons
          cancelLabel={t('hold.cancel')}
          submitLabel={t(held ? 'hold.lift' : 'hold.place')}
          busy={isSubmitting}
          onCancel={onClose}
        />
      </form>
    </FormDialog>
  );
}
