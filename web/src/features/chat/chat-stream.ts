// POST /api/chat/conversations/{id}/chat/stream read as Server-Sent Events with fetch (cookies and
// the X-Requested-With header the gateway requires on state changes). The AbortSignal is the
// Stop button: closing the connection makes the server stop the provider and keep the partial
// reply as 'stopped'.
import { createSseParser } from './sse';
import type { StreamBody, StreamEvent } from './model';

export type StreamOutcome =
  | { kind: 'finished' }
  | { kind: 'aborted' }
  /** Refused before any event (4xx/5xx answer) or the connection broke. */
  | { kind: 'failed'; status: number; message: string | null };

const EVENT_TYPES = new Set(['start', 'delta', 'done', 'error']);

export function toStreamEvent(event: string, data: string): StreamEvent | null {
  if (!EVENT_TYPES.has(event)) return null;
  try {
    return { type: event, data: JSON.parse(data) } as StreamEvent;
  } catch {
    return null;
  }
}

async function errorMessageOf(response: Response): Promise<string | null> {
  try {
    const body = (await response.json()) as { message?: unknown };
    return typeof body.message === 'string' ? body.message : null;
  } catch {
    return null;
  }
}

export async function streamChat(options: {
  conversationId: string;
  body: StreamBody;
  signal: AbortSignal;
  onEvent: (event: StreamEvent) => void;
  fetchFn?: typeof fetch;
}): Promise<StreamOutcome> {
  const { conversationId, body, signal, onEvent } = options;
  const fetchFn = options.fetchFn ?? globalThis.fetch;
  try {
    const response = await fetchFn(`/api/chat/conversations/${encodeURIComponent(conversationId)}/chat/stream`, {
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream', 'X-Requested-With': 'XMLHttpRequest' },
      body: JSON.stringify(body),
      signal,
    });
    if (!response.ok || !response.body) return { kind: 'failed', status: response.status, message: await errorMessageOf(response) };
    const parser = createSseParser(({ event, data }) => {
      const parsed = toStreamEvent(event, data);
      if (parsed) onEvent(parsed);
    });
    const reader = response.body.getReader();
    // stream: true keeps a multi-byte character split across chunks whole.
    const decoder = new TextDecoder();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.push(decoder.decode(value, { stream: true }));
    }
    parser.push(decoder.decode());
    parser.end();
    return { kind: 'finished' };
  } catch (error) {
    if (signal.aborted) return { kind: 'aborted' };
    return { kind: 'failed', status: 0, message: error instanceof Error ? error.message : null };
  }
}
