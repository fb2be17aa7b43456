import { useState, type FormEvent, type ReactElement } from 'react';
import { FormField, buttonClass } from '../../components/form-field';
import { useFeatureTranslation } from '../../i18n/feature';
import { useChangePasswordMutation } from './profile-api';
import { catalogue } from './i18n';
import { OutcomeLine } from './outcome-line';
import { SectionCard } from './section-card';
import { useSectionOutcome } from './use-form-state';

export function PasswordSection(): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const [currentPassword, setCurrent] = useState('');
  const [newPassword, setNew] = useState('');
  const [change, { isLoading }] = useChangePasswordMutation();
  const section = useSectionOutcome(t('profile.failed'));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await change({ currentPassword, newPassword }).unwrap();
      setCurrent('');
      setNew('');
      section.succeeded(t('profile.password.changed'));
    } catch (error) {
      section.failed(error);
    }
  };

  return (
    <SectionCard id="password" title={t('profile.password.title')}>
      <p className="text-sm text-gray-600 dark:text-gray-400">{t('profile.password.intro')}</p>
      <form noValidate onSubmit={(event) => void submit(event)} className="flex flex-col gap-4">
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <FormField label={t('profile.password.current')} error={section.errors.fields.currentPassword}>
            <input
              type="password"
              autoComplete="current-password"
              value={currentPassword}
              onChange={(event) => setCurrent(event.target.value)}
              data-testid="current-password"
            />
          </FormField>
          <FormField label={t('profile.password.new')} error={section.errors.fields.newPassword}>
            <input
              type="password"
              autoComplete="new-password"
              value={newPassword}
              onChange={(event) => setNew(event.target.value)}
              data-testid="new-password"
            />
          </FormField>
        </div>
        <OutcomeLine outcome={section.outcome} testId="password-outcome" />
        <div>
          <button type="submit" className={buttonClass.primary} disabled={isLoading}>
            {t('profile.password.save')}
          </button>
        </div>
      </form>
    </SectionCard>
  );
}
