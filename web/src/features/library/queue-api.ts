// The company's share of the transcription queue (GET /transcripts/queue): its cap, what runs and
// waits, and each waiting recording's place in the company's line. Its ADMIN's (and the platform
// administrator's, for a chosen company) to read.
import type { CompanyQueueDto } from '@earshot/contracts';
import type { Role } from '@earshot/contracts/constants';
import { libraryApi } from '../../entities/recordings';
import { queryParams } from '../../lib/query-params';

export const queueApi = libraryApi.injectEndpoints({
  endpoints: (build) => ({
    companyQueue: build.query<CompanyQueueDto, string | undefined>({
      query: (companyId) => ({ url: '/transcripts/queue', params: queryParams({ companyId }) }),
      providesTags: ['Files'],
    }),
  }),
});

export const { useCompanyQueueQuery } = queueApi;

/** Who may read a company's queue: its ADMIN, and a HOST_ADMIN once a company is chosen. */
export function mayReadQueue(role: Role | null, companyId: string | undefined): boolean {
  return role === 'ADMIN' || (role === 'HOST_ADMIN' && Boolean(companyId));
}
