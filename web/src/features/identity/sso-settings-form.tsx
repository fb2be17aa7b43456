// The company's identity provider settings. The contract's own pieces check the fields first; the
// server has the last word (it fetches the issuer's discovery document) and names what it refuses.
import type { ReactElement } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { IssuerUrl, SSO_DEFAULT_ROLES, SSO_ROLES, SsoSettingsBody, type SsoSettingsDto } from '@earshot/contracts';
import { buttonClass, Field, inputClass } from '../../components/form-parts';
import { FormField } from '../../components/form-field';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { formMessages } from '../../lib/form-messages';
import { placeFieldErrors } from '../../lib/server-errors';
import { useSaveSsoMutation } from './identity-api';
import { catalogue } from './i18n';

const list = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((d) => d.trim().toLowerCase())
    .filter(Boolean);

/** `value = ROLE` lines into the role map; null when a line is not of that form. */
export function parseRoleMap(text: string): Record<string, string> | null {
  const map: Record<string, string> = {};
  for (const line of text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)) {
    const at = line.lastIndexOf('=');
    const value = line.slice(0, at).trim();
    const role = line
      .slice(at + 1)
      .trim()
      .toUpperCase();
    if (at < 1 || !value || !(SSO_ROLES as readonly string[]).includes(role)) return null;
    map[value] = role;
  }
  return map;
}

const FormSchema = z.object({
  issuer: IssuerUrl,
  clientId: SsoSettingsBody.shape.clientId,
  clientSecret: z.string().trim().max(1000),
  domains: z.string().refine((text) => SsoSettingsBody.shape.domains.safeParse(list(text)).success, 'domainsInvalid'),
  required: z.boolean(),
  defaultRole: z.enum(SSO_DEFAULT_ROLES),
  roleClaim: z.string().trim().max(100),
  roleMap: z.string().refine((text) => parseRoleMap(text) !== null, 'roleMapInvalid'),
});
type FormValues = z.input<typeof FormSchema>;
const FIELDS = [
  'issuer',
  'clientId',
  'clientSecret',
  'domains',
  'required',
  'defaultRole',
  'roleClaim',
  'roleMap',
] as const;

export function SsoSettingsForm({
  companyId,
  current,
  onSaved,
}: {
  companyId: string;
  current: SsoSettingsDto | null;
  onSaved: () => void;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const [save, saving] = useSaveSsoMutation();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<FormValues, unknown, z.output<typeof FormSchema>>({
    resolver: zodResolver(FormSchema, formMessages(t)),
    defaultValues: {
      issuer: current?.issuer ?? '',
      clientId: current?.clientId ?? '',
      clientSecret: '',
      domains: current?.domains.join('\n') ?? '',
      required: current?.required ?? false,
      defaultRole: current?.defaultRole ?? 'USER',
      roleClaim: current?.roleClaim ?? '',
      roleMap: Object.entries(current?.roleMap ?? {})
        .map(([value, role]) => `${value} = ${role}`)
        .join('\n'),
    },
  });
  const message = (error?: { message?: string }) =>
    error?.message ? t(`sso.${error.message}`, { defaultValue: error.message }) : undefined;

  const submit = async (values: z.output<typeof FormSchema>) => {
    const body: SsoSettingsBody = {
      issuer: values.issuer,
      clientId: values.clientId,
      ...(values.clientSecret ? { clientSecret: values.clientSecret } : {}),
      domains: list(values.domains),
      required: values.required,
      defaultRole: values.defaultRole,
      ...(values.roleClaim
        ? { roleClaim: values.roleClaim, roleMap: parseRoleMap(values.roleMap) as SsoSettingsBody['roleMap'] }
        : {}),
    };
    try {
      await save({ companyId, body }).unwrap();
      onSaved();
    } catch (error) {
      if (!placeFieldErrors(error, FIELDS, setError))
        setError('root', { type: 'server', message: errorMessage(error) ?? t('sso.failed') });
    }
  };

  return (
    <form
      noValidate
      className="flex flex-col gap-4"
      onSubmit={(event) => void handleSubmit(submit)(event)}
      data-testid="sso-form"
    >
      <FormField label={t('sso.issuer')} hint={t('sso.issuerHint')} error={message(errors.issuer)}>
        <input
          inputMode="url"
          autoComplete="off"
          placeholder="https://login.example.com/realms/acme"
          {...register('issuer')}
        />
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label={t('sso.clientId')} error={message(errors.clientId)}>
          <input autoComplete="off" {...register('clientId')} />
        </FormField>
        <FormField
          label={t('sso.clientSecret')}
          hint={current ? t('sso.clientSecretKept') : undefined}
          error={message(errors.clientSecret)}
        >
          <input type="password" autoComplete="new-password" {...register('clientSecret')} />
        </FormField>
      </div>
      <FormField label={t('sso.domains')} hint={t('sso.domainsHint')} error={message(errors.domains)}>
        <textarea rows={2} placeholder="example.com" {...register('domains')} />
      </FormField>
      <label className="flex items-start gap-2 text-sm text-gray-700 dark:text-gray-300">
        <input
          type="checkbox"
          className="mt-0.5 size-4 accent-brand-600"
          {...register('required')}
          data-testid="sso-required"
        />
        {t('sso.required')}
      </label>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label={t('sso.defaultRole')} error={message(errors.defaultRole)}>
          <select className={`${inputClass} pr-8`} {...register('defaultRole')}>
            {SSO_DEFAULT_ROLES.map((role) => (
              <option key={role} value={role}>
                {role}
              </option>
            ))}
          </select>
        </Field>
        <FormField label={t('sso.roleClaim')} hint={t('sso.roleClaimHint')} error={message(errors.roleClaim)}>
          <input autoComplete="off" placeholder="groups" {...register('roleClaim')} />
        </FormField>
      </div>
      <FormField label={t('sso.roleMap')} hint={t('sso.roleMapHint')} error={message(errors.roleMap)}>
        <textarea rows={3} placeholder="earshot-admins = ADMIN" {...register('roleMap')} />
      </FormField>
      {errors.root?.message ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300" data-testid="form-error">
          {errors.root.message}
        </p>
      ) : null}
      <div>
        <button type="submit" className={buttonClass.primary} disabled={saving.isLoading} data-testid="sso-save">
          {t('sso.save')}
        </button>
      </div>
    </form>
  );
}
