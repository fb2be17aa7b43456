// Calls of the transcripts screens, injected into the app's one RTK Query API.
import type { DeleteAnswer, MessageBody, TranscribeAnswer, WordEditBody } from '@earshot/contracts';
import { api } from '../../lib/api';
import { queryParams } from '../../lib/query-params';
import type { FileList, Peaks, Transcript } from './model';

export interface FileListParams {
  page: number;
  pageSize: number;
  clientId?: string;
  /** HOST_ADMIN only: one company's files. */
  companyId?: string;
}

export type Option = { _id: string; name: string };

const withTags = api.enhanceEndpoints({ addTagTypes: ['Files', 'Transcript'] });

export const transcriptsApi = withTags.injectEndpoints({
  endpoints: (build) => ({
    files: build.query<FileList, FileListParams>({
      query: (params) => ({ url: '/files', params: queryParams({ ...params }) }),
      providesTags: ['Files'],
    }),
    /** Names for the Client column and filter (403 for a USER, or when clients are switched off: ids stay). */
    clientOptions: build.query<Option[], string | undefined>({
      query: (companyId) => ({ url: '/clients/dropdown', params: queryParams({ companyId }) }),
    }),
    /** HOST_ADMIN: names for the Company column, its filter and the upload's company picker. */
    companyOptions: build.query<Option[], void>({ query: () => '/companies/dropdown' }),
    transcript: build.query<Transcript, string>({
      query: (fileId) => `/transcripts/file/${encodeURIComponent(fileId)}`,
      providesTags: (_result, _error, fileId) => [{ type: 'Transcript', id: fileId }],
    }),
    peaks: build.query<Peaks, string>({
      // peaksUrl is '/api/transcripts/{fileId}/peaks'; the base URL already has /api.
      query: (peaksUrl) => peaksUrl.replace(/^\/api(?=\/)/, ''),
    }),
    transcribe: build.mutation<TranscribeAnswer, string>({
      query: (fileId) => ({ url: '/transcripts/transcribe', method: 'POST', body: { fileId } }),
      invalidatesTags: ['Files'],
    }),
    deleteFile: build.mutation<DeleteAnswer, string>({
      query: (fileId) => ({ url: `/transcripts/${encodeURIComponent(fileId)}`, method: 'DELETE' }),
      invalidatesTags: ['Files'],
    }),
    updateWord: build.mutation<MessageBody, WordEditBody & { transcriptId: string; wordId: string }>({
      query: ({ transcriptId, wordId, text, speakerSegmentId }) => ({
        url: `/transcripts/${encodeURIComponent(transcriptId)}/metadata/words/${encodeURIComponent(wordId)}`,
        method: 'PUT',
        body: { text, speakerSegmentId },
      }),
    }),
  }),
});

export const { useFilesQuery, useClientOptionsQuery, useCompanyOptionsQuery, useTranscriptQuery, usePeaksQuery, useTranscribeMutation, useDeleteFileMutation, useUpdateWordMutation } = transcriptsApi;
