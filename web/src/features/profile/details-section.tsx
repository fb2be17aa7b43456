import { useState, type FormEvent, type ReactElement } from 'react';
import type { UserDetailDto } from '@earshot/contracts';
import { FormField, buttonClass } from '../../components/form-field';
import { useFeatureTranslation } from '../../i18n/feature';
import { LANGUAGES, isLanguageCode } from '../../i18n/languages';
import { AvatarField } from './avatar-field';
import { useUpdateProfileMutation } from './profile-api';
import { catalogue } from './i18n';
import { OutcomeLine } from './outcome-line';
import { SectionCard } from './section-card';
import { useSectionOutcome } from './use-form-state';

/** Picture, names and the console's language; the e-mail and role are the administrator's to change. */
export function DetailsSection({ user }: { user: UserDetailDto }): ReactElement {
  const { t, i18n } = useFeatureTranslation(catalogue);
  const [firstName, setFirstName] = useState(user.firstName);
  const [lastName, setLastName] = useState(user.lastName);
  const [language, setLanguage] = useState(user.language ?? '');
  const [update, { isLoading }] = useUpdateProfileMutation();
  const section = useSectionOutcome(t('profile.failed'));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const saved = await update({
        firstName,
        lastName,
        language: isLanguageCode(language) ? language : null,
      }).unwrap();
      if (saved.language && saved.language !== i18n.resolvedLanguage) await i18n.changeLanguage(saved.language);
      section.succeeded(t('profile.saved'));
    } catch (error) {
      section.failed(error);
    }
  };

  return (
    <SectionCard id="details" title={t('profile.details.title')}>
      {/* Outside the form: the picture is saved on its own, as soon as it is chosen. */}
      <AvatarField user={user} />
      <form noValidate onSubmit={(event) => void submit(event)} className="flex flex-col gap-4">
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <FormField label={t('profile.details.firstName')} error={section.errors.fields.firstName}>
            <input
              autoComplete="given-name"
              value={firstName}
              onChange={(event) => setFirstName(event.target.value)}
              data-testid="first-name"
            />
          </FormField>
          <FormField label={t('profile.details.lastName')} error={section.errors.fields.lastName}>
            <input
              autoComplete="family-name"
              value={lastName}
              onChange={(event) => setLastName(event.target.value)}
              data-testid="last-name"
            />
          </FormField>
          <FormField label={t('profile.details.email')}>
            <input value={user.email} readOnly />
          </FormField>
          <FormField label={t('profile.details.language')} error={section.errors.fields.language}>
            <select value={language} onChange={(event) => setLanguage(event.target.value)} data-testid="language">
              <option value="">{t('profile.details.companyLanguage')}</option>
              {LANGUAGES.map((option) => (
                <option key={option.code} value={option.code} lang={option.code}>
                  {option.label}
                </option>
              ))}
            </select>
          </FormField>
        </div>
        <p className="text-sm text-gray-600 dark:text-gray-400">
          {t('profile.details.role')}: {t(`roles.${user.role}`)}
        </p>
        <OutcomeLine outcome={section.outcome} testId="details-outcome" />
        <div>
          <button type="submit" className={buttonClass.primary} disabled={isLoading}>
            {t('profile.details.save')}
          </button>
        </div>
      </form>
    </SectionCard>
  );
}
