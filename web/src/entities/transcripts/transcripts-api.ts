// Calls of the transcripts screens, injected into the app's one RTK Query API.
import type { DeleteAnswer, MessageBody, TranscribeAnswer, WordEditBody } from '@earshot/contracts';
import { api } from '../../lib/api';
import { editIdOf, versionOf } from './edit-id';
import type { LibraryFilters } from '../recordings';
import { queryParams } from '../../lib/query-params';
import type { FileList, Peaks, Transcript } from './model';

/** The list's filters (tag, client, dates, speaker, status, language; a HOST_ADMIN's company) and page. */
export interface FileListParams extends LibraryFilters {
  page: number;
  pageSize: number;
}

export type Option = { _id: string; name: string };

const withTags = api.enhanceEndpoints({ addTagTypes: ['Files', 'Transcript'] });

export const transcriptsApi = withTags.injectEndpoints({
  endpoints: (build) => ({
    files: build.query<FileList, FileListParams>({
      query: (params) => ({ url: '/files', params: queryParams({ ...params }) }),
      providesTags: ['Files'],
    }),
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
    updateWord: build.mutation<
      MessageBody & { editId: string | null; version?: number },
      WordEditBody & { transcriptId: string; wordId: string }
    >({
      // baseVersion: the transcript's version the word was edited on (a stale one is a 409).
      query: ({ transcriptId, wordId, text, speakerSegmentId, baseVersion }) => ({
        url: `/transcripts/${encodeURIComponent(transcriptId)}/metadata/words/${encodeURIComponent(wordId)}`,
        method: 'PUT',
        body: { text, speakerSegmentId, ...(baseVersion === undefined ? {} : { baseVersion }) },
      }),
      transformResponse: (answer: MessageBody, meta) => ({
        ...answer,
        editId: editIdOf(meta),
        version: versionOf(meta),
      }),
    }),
  }),
});

export const {
  useFilesQuery,
  useTranscriptQuery,
  usePeaksQuery,
  useTranscribeMutation,
  useDeleteFileMutation,
  useUpdateWordMutation,
} = transcriptsApi;
