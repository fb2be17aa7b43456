// Downloading an export (GET /transcripts/{fileId}/export?format=): fetched through the app's
// session (an expired session is renewed, a refusal shows as a toast instead of being saved as the
// file), then saved under the name the server gives in Content-Disposition.
import { session } from '../../lib/api';
import type { AppDispatch } from '../../lib/store';

export const EXPORT_FORMATS = ['txt', 'srt', 'vtt', 'docx', 'json', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The file name of a Content-Disposition header (RFC 6266: `filename*` wins over `filename`). */
export function filenameFrom(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const extended = /filename\*\s*=\s*([\w-]+)'[^']*'([^;]+)/i.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[2]!.trim());
    } catch {
      // A malformed escape: the plain name below still names the file.
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/i.exec(header);
  const name = plain ? (plain[1]?.replace(/\\(.)/g, '$1') ?? plain[2]) : undefined;
  return name?.trim() || fallback;
}

function save(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // The click has handed the blob to the download; revoke after the current task.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * Sends `send` through the session and saves the answer under the server's name for it (else
 * `fallback`); resolves to null when saved, else the server's message (or ''). The list's
 * "Export selected" (a POST of several recordings) goes through it too.
 */
export async function downloadThrough(
  send: () => Promise<Response>,
  fallback: string,
  dispatch: AppDispatch,
): Promise<string | null> {
  let response: Response;
  try {
    response = await session.run(send, {
      unauthorised: (r) => r.status === 401,
      ended: () => new Response(null, { status: 401 }),
      dispatch,
    });
  } catch {
    return '';
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { message?: unknown } | null;
    return typeof body?.message === 'string' ? body.message : '';
  }
  save(await response.blob(), filenameFrom(response.headers.get('content-disposition'), fallback));
  return null;
}

/** Downloads the export; resolves to null when saved, else the server's message (or ''). */
export async function downloadExport(
  fileId: string,
  format: ExportFormat,
  dispatch: AppDispatch,
): Promise<string | null> {
  const url = `/api/transcripts/${encodeURIComponent(fileId)}/export?format=${format}`;
  return downloadThrough(
    () => fetch(url, { credentials: 'include', headers: { 'X-Requested-With': 'XMLHttpRequest' } }),
    `transcript.${format}`,
    dispatch,
  );
}
