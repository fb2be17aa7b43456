// Calls of the dashboards, injected into the app's one RTK Query API. The prompt
// service answers analytics, scorecards, CRM and the calls behind a figure; the tenant service the
// platform overview (packages/contracts/src/api/dashboards.ts).
import type {
  AnalyticsDto,
  AvailablePromptDto,
  CrmDto,
  DashboardCallsDto,
  SaasDto,
  ScorecardPoint,
} from '@earshot/contracts';
import { api } from '../../lib/api';
import { queryParams } from '../../lib/query-params';
import type { DashboardFilters } from './filters';

/** The prompt picker offers the prompts the company's people may run (the API's largest page). */
const PICKER_SIZE = 200;

export interface ScorecardArgs extends DashboardFilters {
  promptId: string;
  field: string;
}

export interface CrmArgs {
  companyId?: string;
  promptId?: string;
  field?: string;
}

export interface CallsArgs extends Omit<DashboardFilters, 'groupBy'> {
  limit?: number;
}

export const dashboardsApi = api.injectEndpoints({
  endpoints: (build) => ({
    analytics: build.query<AnalyticsDto, DashboardFilters>({
      query: (filters) => ({ url: '/dashboards/analytics', params: queryParams({ ...filters }) }),
    }),
    scorecard: build.query<ScorecardPoint[], ScorecardArgs>({
      query: (args) => ({ url: '/dashboards/scorecards', params: queryParams({ ...args }) }),
    }),
    crm: build.query<CrmDto, CrmArgs>({
      query: (args) => ({ url: '/dashboards/crm', params: queryParams({ ...args }) }),
    }),
    saas: build.query<SaasDto, void>({ query: () => '/dashboards/saas' }),
    dashboardCalls: build.query<DashboardCallsDto, CallsArgs>({
      query: (args) => ({ url: '/dashboards/calls', params: queryParams({ ...args }) }),
    }),
    dashboardPrompts: build.query<{ items: AvailablePromptDto[] }, string | undefined>({
      query: (companyId) => ({
        url: '/prompts/available',
        params: queryParams({ page: 1, pageSize: PICKER_SIZE, companyId }),
      }),
    }),
  }),
});

export const {
  useAnalyticsQuery,
  useScorecardQuery,
  useCrmQuery,
  useSaasQuery,
  useDashboardCallsQuery,
  useDashboardPromptsQuery,
} = dashboardsApi;
