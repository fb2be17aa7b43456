// The recordings list's own calls: a file's tags (PUT /files/{id}/tags) and the export of the
// selected recordings as one ZIP (POST /transcripts/export), downloaded like the viewer's export.
import type { FileTagsAnswer } from '@earshot/contracts';
import { libraryApi } from '../../entities/recordings';
import type { AppDispatch } from '../../lib/store';
import { downloadThrough, type ExportFormat } from '../../entities/transcripts';

export const listApi = libraryApi.injectEndpoints({
  endpoints: (build) => ({
    setFileTags: build.mutation<FileTagsAnswer, { fileId: string; tags: string[] }>({
      query: ({ fileId, tags }) => ({
        url: `/files/${encodeURIComponent(fileId)}/tags`,
        method: 'PUT',
        body: { tags },
      }),
      invalidatesTags: ['Files', 'Tags'],
    }),
  }),
});

export const { useSetFileTagsMutation } = listApi;

/** Downloads the ZIP of the chosen recordings in `format`; null when saved, else the server's message (or ''). */
export function downloadSelected(
  fileIds: string[],
  format: ExportFormat,
  dispatch: AppDispatch,
): Promise<string | null> {
  const send = () =>
    fetch('/api/transcripts/export', {
      method: 'POST',
      credentials: 'include',
      headers: { 'X-Requested-With': 'XMLHttpRequest', 'Content-Type': 'application/json' },
      body: JSON.stringify({ fileIds, format }),
    });
  return downloadThrough(send, `transcripts-${format}.zip`, dispatch);
}
