// Calls of the transcript analysis page, injected into the app's one RTK
// Query API. Kept apart from transcripts-api.ts so the list's work and this page merge cleanly.
import { api } from '../../lib/api';
import type { CreatePatternBody, PatternBody } from '@earshot/contracts';
import type { AnalysisRun, AvailablePrompt, CallMetrics, Pattern } from '../../entities/transcripts';

const withTags = api.enhanceEndpoints({ addTagTypes: ['AnalysisRuns', 'AnalysisPatterns'] });
const PICKER_SIZE = 200;

export type RunTarget = { fileId: string } & ({ promptId: string } | { patternId: string });

export const analysisApi = withTags.injectEndpoints({
  endpoints: (build) => ({
    callMetrics: build.query<CallMetrics, string>({
      query: (fileId) => `/analysis/transcripts/${encodeURIComponent(fileId)}/metrics`,
    }),
    analysisRuns: build.query<AnalysisRun[], string>({
      query: (fileId) => ({ url: '/analysis/transcripts', params: { fileId } }),
      providesTags: (_result, _error, fileId) => [{ type: 'AnalysisRuns', id: fileId }],
    }),
    startAnalysis: build.mutation<{ _id: string; status: string }, RunTarget>({
      query: (body) => ({ url: '/analysis/transcripts', method: 'POST', body }),
      invalidatesTags: (_result, _error, { fileId }) => [{ type: 'AnalysisRuns', id: fileId }],
    }),
    deleteAnalysis: build.mutation<unknown, { fileId: string; runId: string }>({
      query: ({ runId }) => ({ url: `/analysis/transcripts/${encodeURIComponent(runId)}`, method: 'DELETE' }),
      invalidatesTags: (_result, _error, { fileId }) => [{ type: 'AnalysisRuns', id: fileId }],
    }),
    runnablePrompts: build.query<{ items: AvailablePrompt[] }, void>({
      query: () => ({ url: '/prompts/available', params: { page: 1, pageSize: PICKER_SIZE } }),
    }),
    analysisPatterns: build.query<{ items: Pattern[] }, void>({
      query: () => ({ url: '/analysis/patterns', params: { page: 1, pageSize: PICKER_SIZE } }),
      providesTags: ['AnalysisPatterns'],
    }),
    // The patterns dialog edits the list the run picker shows: each change refetches it.
    createPattern: build.mutation<Pattern, CreatePatternBody>({
      query: (body) => ({ url: '/analysis/patterns', method: 'POST', body }),
      invalidatesTags: ['AnalysisPatterns'],
    }),
    updatePattern: build.mutation<Pattern, { id: string; body: PatternBody }>({
      query: ({ id, body }) => ({ url: `/analysis/patterns/${encodeURIComponent(id)}`, method: 'PUT', body }),
      invalidatesTags: ['AnalysisPatterns'],
    }),
    deletePattern: build.mutation<unknown, string>({
      query: (id) => ({ url: `/analysis/patterns/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['AnalysisPatterns'],
    }),
  }),
});

export const {
  useCallMetricsQuery,
  useAnalysisRunsQuery,
  useStartAnalysisMutation,
  useDeleteAnalysisMutation,
  useRunnablePromptsQuery,
  useAnalysisPatternsQuery,
  useCreatePatternMutation,
  useUpdatePatternMutation,
  useDeletePatternMutation,
} = analysisApi;
