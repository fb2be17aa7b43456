// A whole company's legal hold (HOST_ADMIN): PUT /companies/{id}/hold; the companies
// list carries it back (`hold`), so the list is asked again.
import type { HoldBody, HoldDto } from '@earshot/contracts';
import { api } from '../../lib/api';

export const companyHoldApi = api.injectEndpoints({
  endpoints: (build) => ({
    setCompanyHold: build.mutation<HoldDto, { id: string; body: HoldBody }>({
      query: ({ id, body }) => ({ url: `/companies/${encodeURIComponent(id)}/hold`, method: 'PUT', body }),
      invalidatesTags: [{ type: 'Company', id: 'LIST' }],
    }),
  }),
});

export const { useSetCompanyHoldMutation } = companyHoldApi;
