// Calls of the transcripts screens, injected into the app's one RTK Query API.
import type { DeleteAnswer, MessageBody, TranscribeAnswer, WordEditBody } from '@earshot/contracts';
import { api } from '../../lib/api';
import type { FileList, Peaks, Transcript } from './model';

const withTags = api.enhanceEndpoints({ addTagTypes: ['Files', 'Transcript'] });

export const transcriptsApi = withTags.injectEndpoints({
  endpoints: (build) => ({
    files: build.query<FileList, { page: number; pageSize: number }>({
      query: ({ page, pageSize }) => ({ url: '/files', params: { page, pageSize } }),
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
    updateWord: build.mutation<MessageBody, WordEditBody & { transcriptId: string; wordId: string }>({
      query: ({ transcriptId, wordId, text, speakerSegmentId }) => ({
        url: `/transcripts/${encodeURIComponent(transcriptId)}/metadata/words/${encodeURIComponent(wordId)}`,
        method: 'PUT',
        body: { text, speakerSegmentId },
      }),
    }),
  }),
});

export const { useFilesQuery, useTranscriptQuery, usePeaksQuery, useTranscribeMutation, useDeleteFileMutation, useUpdateWordMutation } = transcriptsApi;
