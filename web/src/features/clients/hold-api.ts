// A client's legal hold: PUT /clients/{id}/hold; the client's reads carry it back.
import type { HoldBody, HoldDto } from '@earshot/contracts';
import { api } from '../../lib/api';

export const clientHoldApi = api.enhanceEndpoints({ addTagTypes: ['Clients', 'Files'] }).injectEndpoints({
  endpoints: (build) => ({
    setClientHold: build.mutation<HoldDto, { id: string; body: HoldBody }>({
      query: ({ id, body }) => ({ url: `/clients/${encodeURIComponent(id)}/hold`, method: 'PUT', body }),
      invalidatesTags: (_result, _error, { id }) => ['Clients', { type: 'Clients', id }],
    }),
  }),
});

export const { useSetClientHoldMutation } = clientHoldApi;
