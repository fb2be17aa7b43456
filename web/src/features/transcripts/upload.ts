import type { UploadedFileDto } from '@earshot/contracts';
// Upload with progress and cancel: fetch cannot report upload progress, so this is an
// XMLHttpRequest (cookies, and the X-Requested-With header the gateway requires on state changes).

export interface UploadHandle {
  done: Promise<UploadResult>;
  cancel: () => void;
}

export type UploadResult =
  | { ok: true; body: UploadedFileDto }
  | { ok: false; cancelled: boolean; status: number; message: string | null };

export function uploadFile(file: File, onProgress: (fraction: number) => void, XHR: typeof XMLHttpRequest = XMLHttpRequest): UploadHandle {
  const xhr = new XHR();
  const done = new Promise<UploadResult>((resolve) => {
    xhr.open('POST', '/api/files/upload');
    xhr.withCredentials = true;
    xhr.setRequestHeader('X-Requested-With', 'XMLHttpRequest');
    xhr.responseType = 'text';
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      let body: unknown;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        body = null;
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve({ ok: true, body: body as UploadedFileDto });
      else {
        const message = body && typeof body === 'object' && typeof (body as { message?: unknown }).message === 'string' ? (body as { message: string }).message : null;
        resolve({ ok: false, cancelled: false, status: xhr.status, message });
      }
    };
    xhr.onerror = () => resolve({ ok: false, cancelled: false, status: 0, message: null });
    xhr.onabort = () => resolve({ ok: false, cancelled: true, status: 0, message: null });
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
  return { done, cancel: () => xhr.abort() };
}
