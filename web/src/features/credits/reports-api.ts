// Calls of the usage and statement pages, injected into the app's one RTK Query API. A person
// without a company scope of their own (USER, CALLER) reads /credits/me/usage.
import type { CreditUsageDto, StatementDto } from '@earshot/contracts';
import { api } from '../../lib/api';
import { queryParams } from '../../lib/query-params';

interface UsageArgs {
  /** null: the caller's own use. */
  companyId: string | null;
  from?: string;
  to?: string;
}

export const reportsApi = api.injectEndpoints({
  endpoints: (build) => ({
    usage: build.query<CreditUsageDto, UsageArgs>({
      query: ({ companyId, from, to }) => ({
        url: companyId ? `/companies/${encodeURIComponent(companyId)}/usage` : '/credits/me/usage',
        params: queryParams({ from, to }),
      }),
    }),
    statement: build.query<StatementDto, { companyId: string; month: string }>({
      query: ({ companyId, month }) => ({
        url: `/companies/${encodeURIComponent(companyId)}/statement`,
        params: { month },
      }),
    }),
  }),
});

export const { useUsageQuery, useStatementQuery } = reportsApi;

/** The CSV of the same period, one line per charge (a plain link: the browser streams it to disk). */
export function usageCsvUrl({ companyId, from, to }: UsageArgs & { companyId: string }): string {
  const query = new URLSearchParams(queryParams({ from, to }) as Record<string, string>).toString();
  return `/api/companies/${encodeURIComponent(companyId)}/usage.csv${query ? `?${query}` : ''}`;
}

export function statementPdfUrl(companyId: string, month: string): string {
  return `/api/companies/${encodeURIComponent(companyId)}/statement.pdf?month=${encodeURIComponent(month)}`;
}
