// POST /api/chat/conversations/{id}/chat/stream read as Server-Sent Events with fetch (EventSource
// cannot POST) and eventsource-parser. It goes through the app's session like every other call:
// a 401 (an expired access token, before any event) refreshes the session once and sends again.
// The AbortSignal is the Stop button: closing the connection makes the server stop the provider
// and keep the partial reply as 'stopped'.
import type { Dispatch } from '@reduxjs/toolkit';
import { createParser } from 'eventsource-parser';
import { CSRF_HEADER, type Session } from '../../lib/base-query';
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

export interface StreamChatOptions {
  conversationId: string;
  /** The recording a conversation is about: the question goes to the route for one recording. */
  fileId?: string | null;
  body: StreamBody;
  signal: AbortSignal;
  onEvent: (event: StreamEvent) => void;
  /** The app's session (lib/api.ts) and the store's dispatch, for the shared refresh. */
  session: Session;
  dispatch: Dispatch;
  fetchFn?: typeof fetch;
}

async function streamOnce(options: StreamChatOptions): Promise<StreamOutcome> {
  const { conversationId, fileId, body, signal, onEvent } = options;
  const fetchFn = options.fetchFn ?? globalThis.fetch;
  const [url, payload] = fileId
    ? ['/api/chat/analysis-conversations/chat/stream', { ...body, fileId, conversationId }]
    : [`/api/chat/conversations/${encodeURIComponent(conversationId)}/chat/stream`, body];
  try {
    const response = await fetchFn(url, {
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream', ...CSRF_HEADER },
      body: JSON.stringify(payload),
      signal,
    });
    if (!response.ok || !response.body)
      return { kind: 'failed', status: response.status, message: await errorMessageOf(response) };
    const parser = createParser({
      onEvent: ({ event, data }) => {
        const parsed = toStreamEvent(event ?? 'message', data);
        if (parsed) onEvent(parsed);
      },
    });
    const reader = response.body.getReader();
    // stream: true keeps a multi-byte character split across chunks whole.
    const decoder = new TextDecoder();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
    }
    parser.feed(decoder.decode());
    // An event without its closing blank line is dropped, as the format says.
    parser.reset();
    return { kind: 'finished' };
  } catch (error) {
    if (signal.aborted) return { kind: 'aborted' };
    return { kind: 'failed', status: 0, message: error instanceof Error ? error.message : null };
  }
}

export function streamChat(options: StreamChatOptions): Promise<StreamOutcome> {
  return options.session.run(() => streamOnce(options), {
    unauthorised: (outcome) => outcome.kind === 'failed' && outcome.status === 401,
    ended: (reason) => ({ kind: 'failed', status: 401, message: reason }),
    dispatch: options.dispatch,
  });
}
