// The unredacted original of a transcript (policy keepOriginal), for the company's ADMIN.
// A mutation, not a cached query: every read is recorded in the audit log, so what is shown is
// always what the server was just asked for, once per opening.
import type { OriginalWordsDto } from '@earshot/contracts';
import { api } from '../../lib/api';

export const originalApi = api.injectEndpoints({
  endpoints: (build) => ({
    readOriginal: build.mutation<OriginalWordsDto, string>({
      query: (fileId) => ({ url: `/transcripts/${encodeURIComponent(fileId)}/original`, method: 'GET' }),
    }),
  }),
});

export const { useReadOriginalMutation } = originalApi;
