// Calls of the audit log screen (HOST_ADMIN), injected into the app's one RTK Query API.
import { api } from '../../lib/api';
import { apiQuery, AUDIT_PAGE_SIZE, type AuditFilters, type AuditPage, type ChainState } from './model';

export const auditLogsApi = api.injectEndpoints({
  endpoints: (build) => ({
    // Keyset pages: the first without a cursor, each next one after the last entry shown. No
    // total: counting a filter over millions of entries is the one slow read the log has.
    auditLog: build.infiniteQuery<AuditPage, AuditFilters, string | null>({
      infiniteQueryOptions: {
        initialPageParam: null,
        getNextPageParam: (last) => last.nextCursor,
      },
      query: ({ queryArg, pageParam }) => ({
        url: '/audit',
        params: {
          ...apiQuery(queryArg),
          pageSize: AUDIT_PAGE_SIZE,
          ...(pageParam ? { cursor: pageParam } : { withTotal: 'false' }),
        },
      }),
      keepUnusedDataFor: 0,
    }),
    /**
     * One entry with the export's filters, asked through the session before a download starts:
     * it refreshes an expired session and reports a bad filter, so the browser never saves an
     * error answer as the file.
     */
    auditExportCheck: build.query<AuditPage, AuditFilters>({
      query: (filters) => ({ url: '/audit', params: { ...apiQuery(filters), pageSize: 1, withTotal: 'false' } }),
      keepUnusedDataFor: 0,
    }),
    /**
     * The hash chain of one company (or the platform's own, null), verified now. Asked for on
     * demand: it reads every entry of the chain, seconds on a long log.
     */
    auditChain: build.query<ChainState, string | null>({
      query: (companyId) => ({ url: '/audit/verify', params: companyId ? { companyId } : {} }),
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useAuditLogInfiniteQuery, useLazyAuditExportCheckQuery, useLazyAuditChainQuery } = auditLogsApi;
