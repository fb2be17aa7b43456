// A call to the gateway with fetch alone, for the signed-out pages (which do not download the
// Redux store): cookies, the CSRF header, JSON both ways. A refused call rejects with RTK
// Query's error shape ({ status, data }) so lib/error-message.ts reads it as it reads the app's.
import { CSRF_HEADER } from './session';

export interface RequestError {
  status: number | 'FETCH_ERROR';
  data: unknown;
}

export interface JsonAnswer {
  status: number;
  data: unknown;
}

export async function sendJson(path: string, body?: unknown): Promise<JsonAnswer> {
  const headers: Record<string, string> = { ...CSRF_HEADER };
  if (body !== undefined) headers['content-type'] = 'application/json';
  try {
    const response = await fetch(`/api${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      credentials: 'include',
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let data: unknown = text;
    try {
      data = text ? JSON.parse(text) : null;
    } catch {
      // Not JSON (a proxy's error page): kept as text, as RTK Query's fetchBaseQuery does.
    }
    return { status: response.status, data };
  } catch (cause) {
    return { status: 0, data: String(cause) };
  }
}

export function settle<T>(answer: JsonAnswer): T {
  if (answer.status >= 200 && answer.status < 300) return answer.data as T;
  const error: RequestError = { status: answer.status === 0 ? 'FETCH_ERROR' : answer.status, data: answer.data };
  throw error;
}

/** GET `path` (POST with a JSON `body`) under /api: the answer's JSON, or a rejection with its status and body. */
export const requestJson = async <T>(path: string, body?: unknown): Promise<T> => settle<T>(await sendJson(path, body));
