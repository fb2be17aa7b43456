import { skipToken } from '@reduxjs/toolkit/query/react';
import { useEffect, useMemo, type ReactElement, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { BrandContext } from '../../lib/brand';
import { FullScreenSpinner } from '../../components/spinner';
import { subdomainOf } from '../../lib/subdomain';
import { applyBrand } from './apply-brand';
import { useGetCompanyConfigQuery } from './branding-api';
import { brandFromConfig, configErrorText } from './company-config';

/**
 * Loads the company's branding for the host's subdomain (full-screen spinner meanwhile) and gives
 * it to the app; on failure logs why and carries on with the product's default branding.
 */
export function BrandingGate({ children }: { children: ReactNode }): ReactElement {
  const { t } = useTranslation();
  const subdomain = useMemo(() => subdomainOf(window.location.hostname), []);
  const { data, error, isLoading } = useGetCompanyConfigQuery(subdomain ?? skipToken);

  useEffect(() => {
    if (error) console.error(configErrorText(error));
  }, [error]);

  const brand = useMemo(() => brandFromConfig(error ? undefined : data, subdomain), [data, error, subdomain]);

  useEffect(() => applyBrand(brand, document), [brand]);

  if (subdomain && isLoading) return <FullScreenSpinner label={t('common.loadingCompany')} />;
  return <BrandContext.Provider value={brand}>{children}</BrandContext.Provider>;
}
