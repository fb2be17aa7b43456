// The support page's call: who to ask for help (services/auth/README.md, support contacts).
import type { SupportContactDto } from '@earshot/contracts';
import { api } from '../../lib/api';

export const supportApi = api.injectEndpoints({
  endpoints: (build) => ({
    supportContacts: build.query<SupportContactDto[], void>({ query: () => '/users/support-contacts' }),
  }),
});

export const { useSupportContactsQuery } = supportApi;
