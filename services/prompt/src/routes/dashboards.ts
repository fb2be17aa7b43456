import type { FastifyInstance } from 'fastify';
import {
  ALL_ROLES,
  AnalyticsDto,
  AnalyticsQuery,
  CrmDto,
  CrmQuery,
  DashboardCallsDto,
  DashboardCallsQuery,
  ERROR_RESPONSES,
  ScorecardQuery,
  ScorecardSeries,
  type Role,
} from '@earshot/contracts';
import { identityOf, type ZodTypeProvider } from '@earshot/kit';
import type { DashboardService } from '../services/dashboards';

const errors = ERROR_RESPONSES;
const tags = ['dashboards'];
/** The CRM dashboard is for those who work with clients (clients are ADMIN and CALLER), and the platform administrator. */
const CRM_ROLES: readonly Role[] = ['HOST_ADMIN', 'ADMIN', 'CALLER'];
const range =
  'Days are UTC (from and to included, default the last 90 days); a week starts on Monday; a period is named by its first day. ' +
  'The platform administrator names the company (companyId).';

/** The dashboards of a company's calls. */
export async function dashboardRoutes(app: FastifyInstance, dashboards: DashboardService): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/dashboards/analytics',
    {
      config: { access: ALL_ROLES },
      schema: {
        tags,
        summary: `Calls and hours per period, talk figures, and calls by agent, client and tag. ${range}`,
        querystring: AnalyticsQuery,
        response: { 200: AnalyticsDto, ...errors },
      },
    },
    async (request) => dashboards.analytics(identityOf(request), request.query),
  );

  r.get(
    '/dashboards/scorecards',
    {
      config: { access: ALL_ROLES },
      schema: {
        tags,
        summary: `One integer, option or boolean field of a prompt's results per period. ${range}`,
        querystring: ScorecardQuery,
        response: { 200: ScorecardSeries, ...errors },
      },
    },
    async (request) => dashboards.scorecards(identityOf(request), request.query),
  );

  r.get(
    '/dashboards/calls',
    {
      config: { access: ALL_ROLES },
      schema: {
        tags,
        summary: `The calls behind a chart's point or a table's row, newest first. ${range}`,
        querystring: DashboardCallsQuery,
        response: { 200: DashboardCallsDto, ...errors },
      },
    },
    async (request) => dashboards.calls(identityOf(request), request.query),
  );

  r.get(
    '/dashboards/crm',
    {
      config: { access: CRM_ROLES },
      schema: {
        tags,
        summary: 'Clients with their calls, last contact, open tasks and the monthly trend of a scorecard field',
        querystring: CrmQuery,
        response: { 200: CrmDto, ...errors },
      },
    },
    async (request) => dashboards.crm(identityOf(request), request.query),
  );
}
