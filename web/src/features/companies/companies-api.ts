// Calls of the companies screen (HOST_ADMIN), injected into the app's one RTK Query API.
import { api } from '../../lib/api';
import type {
  CompanyPolicies,
  CreditGrantBody,
  CreditGrantDto,
  CreditsDto,
  CreditSettingsBody,
  CreditSettingsDto,
} from '@earshot/contracts';
import type { Company, CompanyListArgs, CompanyPage, ImageKind } from './model';

const LIST = { type: 'Company', id: 'LIST' } as const;
const credits = (id: string) => ({ type: 'CompanyCredits' as const, id });
const policies = (id: string) => ({ type: 'CompanyPolicies' as const, id });

export const companiesApi = api
  .enhanceEndpoints({ addTagTypes: ['CompanyCredits', 'CompanyPolicies'] })
  .injectEndpoints({
    endpoints: (build) => ({
      companies: build.query<CompanyPage, CompanyListArgs>({
        query: (args) => ({
          url: '/companies',
          params: Object.fromEntries(Object.entries(args).filter(([, value]) => value !== undefined && value !== '')),
        }),
        providesTags: [LIST],
      }),
      createCompany: build.mutation<Company, Record<string, unknown>>({
        query: (body) => ({ url: '/companies', method: 'POST', body }),
        invalidatesTags: [LIST],
      }),
      updateCompany: build.mutation<Company, { id: string; body: Record<string, unknown> }>({
        query: ({ id, body }) => ({ url: `/companies/${id}`, method: 'PUT', body }),
        invalidatesTags: [LIST],
      }),
      deleteCompany: build.mutation<unknown, string>({
        query: (id) => ({ url: `/companies/${id}`, method: 'DELETE' }),
        invalidatesTags: [LIST],
      }),
      /** Generates or rotates the key: the answer is the only time it is shown whole. */
      rotateApiKey: build.mutation<{ apiKey: string }, string>({
        query: (id) => ({ url: `/companies/${id}/api-key`, method: 'POST' }),
        invalidatesTags: [LIST],
      }),
      revokeApiKey: build.mutation<unknown, string>({
        query: (id) => ({ url: `/companies/${id}/api-key`, method: 'DELETE' }),
        invalidatesTags: [LIST],
      }),
      uploadBrandImage: build.mutation<{ url: string }, { companyId: string; kind: ImageKind; file: File }>({
        query: ({ companyId, kind, file }) => {
          const body = new FormData();
          body.append('file', file);
          return { url: '/companies/upload', method: 'POST', params: { companyId, kind }, body };
        },
        invalidatesTags: [LIST],
      }),
      companyCredits: build.query<CreditsDto, { id: string; page: number; pageSize: number }>({
        query: ({ id, page, pageSize }) => ({ url: `/companies/${id}/credits`, params: { page, pageSize } }),
        providesTags: (_result, _error, { id }) => [credits(id)],
      }),
      /** A positive amount is a grant, a negative one an adjustment; both change the list's balance. */
      recordCredits: build.mutation<CreditGrantDto, { id: string } & CreditGrantBody>({
        query: ({ id, ...body }) => ({ url: `/companies/${id}/credits`, method: 'POST', body }),
        invalidatesTags: (_result, _error, { id }) => [credits(id), LIST],
      }),
      creditSettings: build.mutation<CreditSettingsDto, { id: string } & CreditSettingsBody>({
        query: ({ id, ...body }) => ({ url: `/companies/${id}/credits/settings`, method: 'PUT', body }),
        invalidatesTags: (_result, _error, { id }) => [credits(id)],
      }),
      companyPolicies: build.query<CompanyPolicies, string>({
        query: (id) => ({ url: `/companies/${id}/policies` }),
        providesTags: (_result, _error, id) => [policies(id)],
      }),
      saveCompanyPolicies: build.mutation<CompanyPolicies, { id: string; body: CompanyPolicies }>({
        query: ({ id, body }) => ({ url: `/companies/${id}/policies`, method: 'PUT', body }),
        invalidatesTags: (_result, _error, { id }) => [policies(id)],
      }),
    }),
  });

export const {
  useCompanyCreditsQuery,
  useRecordCreditsMutation,
  useCreditSettingsMutation,
  useCompaniesQuery,
  useCreateCompanyMutation,
  useUpdateCompanyMutation,
  useDeleteCompanyMutation,
  useRotateApiKeyMutation,
  useRevokeApiKeyMutation,
  useUploadBrandImageMutation,
  useCompanyPoliciesQuery,
  useSaveCompanyPoliciesMutation,
} = companiesApi;
