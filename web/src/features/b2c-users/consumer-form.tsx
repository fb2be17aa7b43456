// A new consumer in a B2C company: the users API's registration rules (contracts), role USER.
import { zodResolver } from '@hookform/resolvers/zod';
import { Password, RegisterUserFields } from '@earshot/contracts';
import type { ReactElement } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Field, FormActions, FormDialog, inputClass } from '../../components/form-parts';
import { useFeatureTranslation } from '../../i18n/feature';
import { formErrorsOf } from '../../lib/form-errors';
import type { NewConsumer } from './b2c-users-api';
import { catalogue } from './i18n';

const ConsumerSchema = RegisterUserFields.pick({ firstName: true, lastName: true, email: true }).extend({
  password: Password,
  companyId: z.string().min(1),
});
type Values = z.input<typeof ConsumerSchema>;
const FIELDS = ['companyId', 'firstName', 'lastName', 'email', 'password'] as const;

export function ConsumerForm({
  companies,
  busy,
  onSubmit,
  onClose,
}: {
  companies: Array<{ _id: string; name: string }>;
  busy: boolean;
  onSubmit: (consumer: NewConsumer) => Promise<unknown>;
  onClose: () => void;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<Values, unknown, NewConsumer>({
    resolver: zodResolver(ConsumerSchema),
    defaultValues: {
      companyId: companies.length === 1 ? companies[0]!._id : '',
      firstName: '',
      lastName: '',
      email: '',
      password: '',
    },
  });
  const message = (field: (typeof FIELDS)[number]) => {
    const error = errors[field];
    if (!error) return undefined;
    return error.type === 'server' && error.message ? error.message : t(`b2c.errors.${field}`);
  };
  const submit = handleSubmit(async (values) => {
    const error = await onSubmit(values);
    if (!error) return;
    const { fields, message: text } = formErrorsOf(error, (serverMessage) =>
      /e-?mail/i.test(serverMessage) ? 'email' : null,
    );
    const known = Object.entries(fields).filter(([field]) => (FIELDS as readonly string[]).includes(field));
    for (const [field, fieldMessage] of known)
      setError(field as (typeof FIELDS)[number], { type: 'server', message: fieldMessage });
    if (known.length === 0) setError('root.server', { message: text ?? t('b2c.failed') });
  });
  return (
    <FormDialog title={t('b2c.form.title')} onClose={onClose}>
      <form onSubmit={(event) => void submit(event)} noValidate className="space-y-4" data-testid="consumer-form">
        <Field label={t('b2c.form.company')} error={message('companyId')}>
          <select {...register('companyId')} className={`${inputClass} pr-8`}>
            <option value="">{t('b2c.form.chooseCompany')}</option>
            {companies.map((company) => (
              <option key={company._id} value={company._id}>
                {company.name}
              </option>
            ))}
          </select>
        </Field>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label={t('b2c.form.firstName')} error={message('firstName')}>
            <input {...register('firstName')} className={inputClass} autoComplete="off" />
          </Field>
          <Field label={t('b2c.form.lastName')} error={message('lastName')}>
            <input {...register('lastName')} className={inputClass} autoComplete="off" />
          </Field>
        </div>
        <Field label={t('b2c.form.email')} error={message('email')}>
          <input {...register('email')} type="email" className={inputClass} autoComplete="off" />
        </Field>
        <Field label={t('b2c.form.password')} error={message('password')} hint={t('b2c.form.passwordHint')}>
          <input {...register('password')} type="text" className={inputClass} autoComplete="new-password" />
        </Field>
        <FormActions
          busy={busy}
          saveLabel={t('b2c.form.create')}
          cancelLabel={t('b2c.cancel')}
          onCancel={onClose}
          message={errors.root?.server?.message ?? null}
        />
      </form>
    </FormDialog>
  );
}
