// The prices in force (`GET /pricing`, every signed-in role): the pricing page lists them and the
// AI configuration page flags models without one. Only lazy page chunks import this file.
import { api } from '../../lib/api';
import type { PricingDto } from '@earshot/contracts';

export const pricingTag = 'Pricing' as const;

export const creditsApi = api.enhanceEndpoints({ addTagTypes: [pricingTag] }).injectEndpoints({
  endpoints: (build) => ({
    pricing: build.query<PricingDto, void>({ query: () => '/pricing', providesTags: [pricingTag] }),
  }),
});

export const { usePricingQuery } = creditsApi;
