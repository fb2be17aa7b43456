// The member's company's feature switches, asked once per session: the menu hides what is off.
import { skipToken } from '@reduxjs/toolkit/query/react';
import { api } from '../../lib/api';
import type { StoredUser } from '../../lib/stored-user';
import type { EnabledFeatures } from './menu';

const enabledFeaturesApi = api.injectEndpoints({
  endpoints: (build) => ({
    enabledFeatures: build.query<{ features: EnabledFeatures }, void>({ query: () => '/features/enabled' }),
  }),
});

const ALL_ON: EnabledFeatures = {};

/** Platform administrators belong to no company; failures show everything (the server still refuses). */
export function useEnabledFeatures(user: StoredUser | null): EnabledFeatures {
  const { data } = enabledFeaturesApi.useEnabledFeaturesQuery(user?.companyId ? undefined : skipToken);
  return data?.features ?? ALL_ON;
}
