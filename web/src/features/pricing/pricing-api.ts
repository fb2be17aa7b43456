// Calls of the pricing page (HOST_ADMIN), injected into the app's one RTK Query API. The prices in
// force come from entities/credits/credits-api.ts (the AI configuration page reads them too).
import type {
  AiModelDropdownItem,
  CurrencyBody,
  CurrencyDto,
  PriceCreateBody,
  PriceHistoryQuery,
} from '@earshot/contracts';
import { creditsApi, pricingTag } from '../../entities/credits';
import type { PriceDto } from './model';

export const pricingApi = creditsApi.injectEndpoints({
  endpoints: (build) => ({
    priceableModels: build.query<AiModelDropdownItem[], void>({ query: () => '/ai/config/model/dropdown' }),
    priceHistory: build.query<PriceDto[], PriceHistoryQuery>({
      query: (subject) => ({ url: '/pricing/history', params: subject }),
      providesTags: [pricingTag],
    }),
    setPrice: build.mutation<PriceDto, PriceCreateBody>({
      query: (body) => ({ url: '/pricing', method: 'POST', body }),
      invalidatesTags: [pricingTag],
    }),
    setCurrency: build.mutation<CurrencyDto, CurrencyBody>({
      query: (body) => ({ url: '/pricing/currency', method: 'PUT', body }),
      invalidatesTags: [pricingTag],
    }),
  }),
});

export const { usePriceableModelsQuery, usePriceHistoryQuery, useSetPriceMutation, useSetCurrencyMutation } =
  pricingApi;
