// How far each service has encrypted a company's existing data: GET
// /companies/{id}/encryption. Saving the policies (turning encryption on) asks again.
import type { CompanyEncryptionProgress } from '@earshot/contracts';
import { api } from '../../lib/api';

export const encryptionProgressApi = api.enhanceEndpoints({ addTagTypes: ['CompanyPolicies'] }).injectEndpoints({
  endpoints: (build) => ({
    companyEncryption: build.query<CompanyEncryptionProgress, string>({
      query: (id) => ({ url: `/companies/${encodeURIComponent(id)}/encryption` }),
      providesTags: (_result, _error, id) => [{ type: 'CompanyPolicies', id }],
    }),
  }),
});

export const { useCompanyEncryptionQuery } = encryptionProgressApi;
