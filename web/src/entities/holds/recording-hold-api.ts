// A recording's legal hold: read with the file (GET /files/{id}, `hold`) and placed or
// lifted with PUT /files/{id}/hold; the recordings list ('Files') shows the badge too.
import type { FileItemDto, HoldBody, HoldDto } from '@earshot/contracts';
import { api } from '../../lib/api';

const recording = (id: string) => ({ type: 'RecordingFile' as const, id });

export const recordingHoldApi = api.enhanceEndpoints({ addTagTypes: ['RecordingFile', 'Files'] }).injectEndpoints({
  endpoints: (build) => ({
    recordingFile: build.query<FileItemDto, string>({
      query: (id) => `/files/${encodeURIComponent(id)}`,
      providesTags: (_result, _error, id) => [recording(id)],
    }),
    setRecordingHold: build.mutation<HoldDto, { id: string; body: HoldBody }>({
      query: ({ id, body }) => ({ url: `/files/${encodeURIComponent(id)}/hold`, method: 'PUT', body }),
      invalidatesTags: (_result, _error, { id }) => [recording(id), 'Files'],
    }),
  }),
});

export const { useRecordingFileQuery, useSetRecordingHoldMutation } = recordingHoldApi;
