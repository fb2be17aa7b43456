import { api } from '../../lib/api';
import type { CompanyConfig } from './company-config';

export const brandingApi = api.injectEndpoints({
  endpoints: (build) => ({
    getCompanyConfig: build.query<CompanyConfig, string>({
      query: (subdomain) => `/config/company/${encodeURIComponent(subdomain)}`,
    }),
  }),
});

export const { useGetCompanyConfigQuery } = brandingApi;
