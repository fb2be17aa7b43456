// Upload with progress and cancel: fetch cannot report upload progress, so this is an
// XMLHttpRequest (cookies, and the X-Requested-With header the gateway requires on state changes).
// It goes through the app's session like every other call: a 401 refreshes the session once
// (shared with every other request at that moment) and sends the file again. Shared by the
// transcripts list, the client profile (which uploads straight into a client) and a custom GPT's
// knowledge files (another address, `url`).
import type { Dispatch } from '@reduxjs/toolkit';
import type { UploadedFileDto } from '@earshot/contracts';
import { CSRF_HEADER, type Session } from './base-query';

export interface UploadHandle<Body = UploadedFileDto> {
  done: Promise<UploadResult<Body>>;
  cancel: () => void;
}

export type UploadResult<Body = UploadedFileDto> =
  { ok: true; body: Body } | { ok: false; cancelled: boolean; status: number; message: string | null };

export interface UploadOptions {
  onProgress: (fraction: number) => void;
  /** The app's session (lib/api.ts) and the store's dispatch, for the shared refresh. */
  session: Session;
  dispatch: Dispatch;
  /** The company the recording belongs to: a HOST_ADMIN must name one (UploadQuery). */
  companyId?: string;
  /** The client the recording is about (UploadFields), linked as it is stored. */
  clientId?: string;
  /** More multipart text fields (UploadFields: `language`, `speakers`), sent before the file. */
  fields?: Record<string, string>;
  /** Where to post instead of the recordings' `/api/files/upload` (the body then is `Body`). */
  url?: string;
  XHR?: typeof XMLHttpRequest;
}

const CANCELLED = { ok: false, cancelled: true, status: 0, message: null } as const;

function recordingsUrl(companyId: string | undefined): string {
  return companyId ? `/api/files/upload?${new URLSearchParams({ companyId }).toString()}` : '/api/files/upload';
}

export function uploadFile<Body = UploadedFileDto>(file: File, options: UploadOptions): UploadHandle<Body> {
  const XHR = options.XHR ?? XMLHttpRequest;
  let current: XMLHttpRequest | null = null;
  let cancelled = false;

  const sendOnce = () =>
    new Promise<UploadResult<Body>>((resolve) => {
      if (cancelled) return resolve(CANCELLED);
      const xhr = new XHR();
      current = xhr;
      xhr.open('POST', options.url ?? recordingsUrl(options.companyId));
      xhr.withCredentials = true;
      for (const [name, value] of Object.entries(CSRF_HEADER)) xhr.setRequestHeader(name, value);
      xhr.responseType = 'text';
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable && event.total > 0) options.onProgress(event.loaded / event.total);
      };
      xhr.onload = () => {
        let body: unknown;
        try {
          body = xhr.responseText ? JSON.parse(xhr.responseText) : null;
        } catch {
          body = null;
        }
        if (xhr.status >= 200 && xhr.status < 300) resolve({ ok: true, body: body as Body });
        else {
          const message =
            body && typeof body === 'object' && typeof (body as { message?: unknown }).message === 'string'
              ? (body as { message: string }).message
              : null;
          resolve({ ok: false, cancelled: false, status: xhr.status, message });
        }
      };
      xhr.onerror = () => resolve({ ok: false, cancelled: false, status: 0, message: null });
      xhr.onabort = () => resolve(CANCELLED);
      const form = new FormData();
      // Text fields before the file: the server reads the multipart stream in order.
      if (options.clientId) form.append('clientId', options.clientId);
      for (const [name, value] of Object.entries(options.fields ?? {})) form.append(name, value);
      form.append('file', file, file.name);
      xhr.send(form);
    });

  const done = options.session.run(sendOnce, {
    unauthorised: (result) => !result.ok && result.status === 401,
    ended: (reason): UploadResult<Body> => ({ ok: false, cancelled: false, status: 401, message: reason }),
    dispatch: options.dispatch,
  });
  return {
    done,
    cancel: () => {
      cancelled = true;
      current?.abort();
    },
  };
}
