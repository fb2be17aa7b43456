// Calls of the Sign-in and provisioning page (a company's ADMIN; HOST_ADMIN for any company),
// injected into the app's one RTK Query API.
import type { SsoSettingsAnswer, SsoSettingsBody, SsoSettingsDto, SsoSignInsResponse } from '@earshot/contracts';
import { api } from '../../lib/api';

const withTags = api.enhanceEndpoints({ addTagTypes: ['Sso', 'SsoSignIns'] });
const at = (companyId: string) => `/companies/${encodeURIComponent(companyId)}/sso`;

export const identityApi = withTags.injectEndpoints({
  endpoints: (build) => ({
    ssoSettings: build.query<SsoSettingsAnswer, string>({
      query: (companyId) => at(companyId),
      providesTags: ['Sso'],
    }),
    saveSso: build.mutation<SsoSettingsDto, { companyId: string; body: SsoSettingsBody }>({
      query: ({ companyId, body }) => ({ url: at(companyId), method: 'PUT', body }),
      invalidatesTags: ['Sso'],
    }),
    removeSso: build.mutation<unknown, string>({
      query: (companyId) => ({ url: at(companyId), method: 'DELETE' }),
      invalidatesTags: ['Sso'],
    }),
    ssoSignIns: build.query<SsoSignInsResponse, string>({
      query: (companyId) => `${at(companyId)}/sign-ins`,
      providesTags: ['SsoSignIns'],
    }),
  }),
});

export const { useSsoSettingsQuery, useSaveSsoMutation, useRemoveSsoMutation, useSsoSignInsQuery } = identityApi;
