// Create or edit one company: its fields and colours (one form, one Save), then, once it exists,
// its images, API key and a link to its subdomain. Creating keeps the dialog open on the new
// company, so its key (shown once) and images come next.
import { useMemo, useState, type ReactElement } from 'react';
import { FormDialog } from '../../components/form-parts';
import { linkClass } from '../../components/text-field';
import { useFeatureTranslation } from '../../i18n/feature';
import { ApiKeySection } from './api-key-section';
import { BrandImages } from './brand-images';
import { useCreateCompanyMutation, useUpdateCompanyMutation } from './companies-api';
import { CompanyForm } from './company-form';
import { CompanyHold } from './company-hold';
import { PoliciesSection } from './policies-section';
import { catalogue } from './i18n';
import { bodyFromForm, EMPTY_FORM, formFromCompany, type Company, type Notify } from './model';

const LOOPBACK = /^(127(?:\.\d{1,3}){3}|\[::1\])$/;
const IP_ADDRESS = /^(\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:.]+\])$/i;

/**
 * The company's own address: its subdomain in front of this host (acme.localhost:4000 locally).
 * An IP address has no subdomains (`acme.127.0.0.1` is not a valid address and threw where it was
 * parsed), so a loopback one becomes localhost, which browsers resolve to the same machine, and any
 * other gives no address (null).
 */
export function companyUrl(
  domain: string,
  location: Pick<Location, 'protocol' | 'host'> = window.location,
): string | null {
  const [, name = '', port] = /^(\[[^\]]*\]|[^:]*)(:\d+)?$/.exec(location.host.replace(/^www\./, '')) ?? [];
  const host = LOOPBACK.test(name) ? 'localhost' : IP_ADDRESS.test(name) ? null : name;
  if (!host) return null;
  try {
    return new URL(`${location.protocol}//${domain}.${host}${port ?? ''}/`).href;
  } catch {
    return null;
  }
}

export function CompanyDialog({
  company: given,
  onClose,
  notify,
}: {
  company: Company | null;
  onClose: () => void;
  notify: Notify;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const [company, setCompany] = useState<Company | null>(given);
  const [freshKey, setFreshKey] = useState<string | null>(null);
  const [create, creating] = useCreateCompanyMutation();
  const [update, updating] = useUpdateCompanyMutation();
  const initial = useMemo(() => (company ? formFromCompany(company) : EMPTY_FORM), [company]);

  const save = async (values: Parameters<typeof bodyFromForm>[0]): Promise<unknown> => {
    const body = bodyFromForm(values);
    const answer = company ? await update({ id: company._id, body }) : await create(body);
    if ('error' in answer) {
      notify(false, t('companies.saveFailed'));
      return answer.error;
    }
    notify(true, company ? t('companies.saved') : t('companies.created'));
    if (!company && answer.data.apiKey && !answer.data.apiKey.startsWith('****')) {
      setFreshKey(answer.data.apiKey);
      setCompany({ ...answer.data, apiKey: `****${answer.data.apiKey.slice(-4)}` });
    } else {
      setCompany(answer.data);
    }
    return null;
  };

  const title = company ? t('companies.form.titleEdit', { name: company.name }) : t('companies.form.titleNew');
  const section = 'space-y-3 border-t border-gray-200 pt-5 dark:border-gray-800';
  return (
    <FormDialog title={title} onClose={onClose} size="lg">
      <CompanyForm
        initial={initial}
        companyId={company?._id ?? null}
        busy={creating.isLoading || updating.isLoading}
        onSubmit={save}
        onCancel={onClose}
      />
      <section className={`mt-6 ${section}`} aria-labelledby="company-branding">
        <h3 id="company-branding" className="text-sm font-semibold text-gray-900 dark:text-white">
          {t('companies.branding.title')}
        </h3>
        {company ? (
          <>
            <CompanySiteLink url={companyUrl(company.domain)} />
            <BrandImages
              company={company}
              onUploaded={(ok, detail) =>
                notify(ok, ok ? t('companies.branding.uploaded') : t('companies.branding.uploadFailed'), detail)
              }
            />
          </>
        ) : (
          <p className="text-sm text-gray-600 dark:text-gray-400">{t('companies.branding.saveFirst')}</p>
        )}
      </section>
      {company && (
        <section className={`mt-6 ${section}`} aria-labelledby="company-api-key">
          <h3 id="company-api-key" className="text-sm font-semibold text-gray-900 dark:text-white">
            {t('companies.apiKey.title')}
          </h3>
          <ApiKeySection
            key={company._id}
            companyId={company._id}
            masked={company.apiKey}
            fresh={freshKey}
            onResult={notify}
          />
        </section>
      )}
      {company && (
        <section className={`mt-6 ${section}`} aria-labelledby="company-hold">
          <CompanyHold key={company._id} company={company} notify={notify} headingId="company-hold" />
        </section>
      )}
      {company && (
        <section className={`mt-6 ${section}`} aria-labelledby="company-policies">
          <PoliciesSection key={company._id} companyId={company._id} notify={notify} headingId="company-policies" />
        </section>
      )}
    </FormDialog>
  );
}

function CompanySiteLink({ url }: { url: string | null }): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  if (!url) return <p className="text-sm text-gray-600 dark:text-gray-400">{t('companies.branding.noSite')}</p>;
  return (
    <a
      href={url}
      target="_blank"
      rel="noopener noreferrer"
      className={`${linkClass} inline-block`}
      data-testid="company-site-link"
    >
      {t('companies.branding.openSite', { host: new URL(url).host })} ↗
    </a>
  );
}
