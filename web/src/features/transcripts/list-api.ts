// The recordings list's own calls: a file's tags (PUT /files/{id}/tags) and the export of the
// selected recordings as one ZIP (POST /transcripts/export), which is fetched through the app's
// session like the viewer's export and saved under the server's name for it.
import type { FileTagsAnswer } from '@earshot/contracts';
import { session } from '../../lib/api';
import { libraryApi } from '../../lib/library-api';
import type { AppDispatch } from '../../lib/store';
import { filenameFrom, type ExportFormat } from './export-file';

export const listApi = libraryApi.injectEndpoints({
  endpoints: (build) => ({
    setFileTags: build.mutation<FileTagsAnswer, { fileId: string; tags: string[] }>({
      query: ({ fileId, tags }) => ({ url: `/files/${encodeURIComponent(fileId)}/tags`, method: 'PUT', body: { tags } }),
      invalidatesTags: ['Files', 'Tags'],
    }),
  }),
});

export const { useSetFileTagsMutation } = listApi;

/** Downloads the ZIP of the chosen recordings in `format`; null when saved, else the server's message (or ''). */
export async function downloadSelected(fileIds: string[], format: ExportFormat, dispatch: AppDispatch): Promise<string | null> {
  const send = () => fetch('/api/transcripts/export', {
    method: 'POST',
    credentials: 'include',
    headers: { 'X-Requested-With': 'XMLHttpRequest', 'Content-Type': 'application/json' },
    body: JSON.stringify({ fileIds, format }),
  });
  let response: Response;
  try {
    response = await session.run(send, { unauthorised: (r) => r.status === 401, ended: () => new Response(null, { status: 401 }), dispatch });
  } catch {
    return '';
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { message?: unknown } | null;
    return typeof body?.message === 'string' ? body.message : '';
  }
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = filenameFrom(response.headers.get('content-disposition'), `transcripts-${format}.zip`);
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
  return null;
}

