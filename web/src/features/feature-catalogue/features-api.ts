// Calls of the features page (HOST_ADMIN), injected into the app's one RTK Query API.
import { api } from '../../lib/api';

export interface Feature {
  key: string;
  name: string;
  description: string;
  defaultEnabled: boolean;
  /** The platform kill switch (catalogue) or the company's effective switch; absent = on. */
  enabled?: boolean;
}

const CATALOGUE = { type: 'Company', id: 'FEATURES' } as const;

export const featuresApi = api.injectEndpoints({
  endpoints: (build) => ({
    featureCatalogue: build.query<Feature[], void>({ query: () => '/features', providesTags: [CATALOGUE] }),
    setPlatformFeature: build.mutation<unknown, { key: string; enabled: boolean }>({
      query: ({ key, enabled }) => ({ url: `/features/${encodeURIComponent(key)}`, method: 'PUT', body: { enabled } }),
      invalidatesTags: [CATALOGUE],
    }),
    companyFeatures: build.query<Feature[], string>({
      query: (id) => `/companies/${id}/features`,
      providesTags: (_result, _error, id) => [{ type: 'Company', id: `features-${id}` }],
    }),
    setCompanyFeatures: build.mutation<unknown, { id: string; features: Record<string, boolean> }>({
      query: ({ id, features }) => ({ url: `/companies/${id}/features`, method: 'PUT', body: { features } }),
      invalidatesTags: (_result, _error, { id }) => [{ type: 'Company', id: `features-${id}` }],
    }),
  }),
});

export const {
  useFeatureCatalogueQuery,
  useSetPlatformFeatureMutation,
  useCompanyFeaturesQuery,
  useSetCompanyFeaturesMutation,
} = featuresApi;
