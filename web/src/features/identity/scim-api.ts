// Calls of the SCIM section of "Sign-in and provisioning" (a company's ADMIN; HOST_ADMIN for any
// company), injected into the app's one RTK Query API.
import type { AuditProvisioningAnswer, ScimTokenCreatedDto, ScimTokenDto } from '@earshot/contracts';
import { api } from '../../lib/api';

const withTags = api.enhanceEndpoints({ addTagTypes: ['ScimTokens', 'ProvisioningChanges'] });
const tokensOf = (companyId: string) => `/companies/${encodeURIComponent(companyId)}/scim-tokens`;

export const scimApi = withTags.injectEndpoints({
  endpoints: (build) => ({
    scimTokens: build.query<ScimTokenDto[], string>({
      query: (companyId) => tokensOf(companyId),
      providesTags: ['ScimTokens'],
    }),
    createScimToken: build.mutation<ScimTokenCreatedDto, { companyId: string; name: string }>({
      query: ({ companyId, name }) => ({ url: tokensOf(companyId), method: 'POST', body: { name } }),
      invalidatesTags: ['ScimTokens'],
    }),
    revokeScimToken: build.mutation<unknown, { companyId: string; tokenId: string }>({
      query: ({ companyId, tokenId }) => ({
        url: `${tokensOf(companyId)}/${encodeURIComponent(tokenId)}`,
        method: 'DELETE',
      }),
      invalidatesTags: ['ScimTokens'],
    }),
    provisioningChanges: build.query<AuditProvisioningAnswer, string>({
      query: (companyId) => ({ url: '/audit/provisioning', params: { companyId, pageSize: 20 } }),
      providesTags: ['ProvisioningChanges'],
    }),
  }),
});

export const {
  useScimTokensQuery,
  useCreateScimTokenMutation,
  useRevokeScimTokenMutation,
  useProvisioningChangesQuery,
} = scimApi;
