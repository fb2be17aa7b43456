/** @jest-environment node */
// streamChat against a fake fetch at the network boundary: Node's Response and ReadableStream
// carry the event stream in whatever chunks the test chooses.
import { describe, expect, it, jest } from '@jest/globals';
import type { Dispatch } from '@reduxjs/toolkit';
import { CREDIT_CODES, CREDIT_MESSAGES } from '@earshot/contracts/constants';
import { createSession, SESSION_ERRORS, type SessionEndReason } from '../../lib/base-query';
import { streamChat, toStreamEvent } from './chat-stream';
import type { StreamEvent } from './model';

function sse(chunks: string[]): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

/** A gateway whose stream answers `chunks`; the first `expired` stream calls get a 401. */
function gateway(chunks: string[], options: { expired?: number; refreshStatus?: number } = {}) {
  const calls: string[] = [];
  const bodies: unknown[] = [];
  let expired = options.expired ?? 0;
  const fetchFn = jest.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    calls.push(url);
    bodies.push(typeof init?.body === 'string' ? JSON.parse(init.body) : null);
    if (url.endsWith('/auth/refresh')) return new Response('{}', { status: options.refreshStatus ?? 200 });
    if (expired > 0) {
      expired -= 1;
      return new Response(JSON.stringify({ message: 'Unauthorized' }), { status: 401 });
    }
    return sse(chunks);
  }) as unknown as typeof fetch;
  return { fetchFn, calls, bodies };
}

async function run(chunks: string[], options: { expired?: number; refreshStatus?: number; fileId?: string } = {}) {
  const { fetchFn, calls, bodies } = gateway(chunks, options);
  const ended: SessionEndReason[] = [];
  const session = createSession({ baseUrl: '/api', fetchFn, onSessionEnd: (reason) => ended.push(reason) });
  const events: StreamEvent[] = [];
  const outcome = await streamChat({
    conversationId: 'c1',
    fileId: options.fileId,
    body: { message: 'Hi' },
    signal: new AbortController().signal,
    onEvent: (event) => events.push(event),
    session,
    dispatch: jest.fn() as unknown as Dispatch,
    fetchFn,
  });
  return { outcome, events, calls, bodies, ended };
}

const stream =
  'event: start\ndata: {"model":"m"}\n\nevent: delta\ndata: {"text":"Hel"}\n\nevent: delta\ndata: {"text":"lo"}\n\n';
const expected = [
  { type: 'start', data: { model: 'm' } },
  { type: 'delta', data: { text: 'Hel' } },
  { type: 'delta', data: { text: 'lo' } },
];

describe('chat stream', () => {
  it('a credits refusal (402 before the stream) fails the reply with the server’s message', async () => {
    const fetchFn = jest.fn(
      async () =>
        new Response(
          JSON.stringify({ message: CREDIT_MESSAGES.CREDITS_EXHAUSTED, code: CREDIT_CODES.CREDITS_EXHAUSTED }),
          { status: 402 },
        ),
    ) as unknown as typeof fetch;
    const session = createSession({ baseUrl: '/api', fetchFn, onSessionEnd: () => undefined });
    const outcome = await streamChat({
      conversationId: 'c1',
      body: { message: 'Hi' },
      signal: new AbortController().signal,
      onEvent: () => undefined,
      session,
      dispatch: jest.fn() as unknown as Dispatch,
      fetchFn,
    });
    expect(outcome).toEqual({
      kind: 'failed',
      status: 402,
      message: 'Your company has no credits left: ask your administrator',
    });
  });

  it('reads events whole', async () => {
    const { outcome, events } = await run([stream]);
    expect(outcome).toEqual({ kind: 'finished' });
    expect(events).toEqual(expected);
  });

  it('gives the same events however the chunks split (one character at a time included)', async () => {
    expect((await run(stream.split(''))).events).toEqual(expected);
    for (let at = 1; at < stream.length; at += 7)
      expect((await run([stream.slice(0, at), stream.slice(at)])).events).toEqual(expected);
  });

  it('joins multi-line data with newlines and takes CRLF, CR and LF line ends, split between \\r and \\n too', async () => {
    const { events } = await run(['event: delta\r', '\ndata: {"text":\r\ndata: "two lines"}\r', '\n\r\n']);
    expect(events).toEqual([{ type: 'delta', data: { text: 'two lines' } }]);
  });

  it('skips comments and unknown events, and drops an unfinished event', async () => {
    const { events } = await run([
      ': keep-alive\n\nid: 7\nretry: 10\ndata: plain\n\nevent: delta\ndata: {"text":"a"}\n\nevent: delta\ndata: {"text":"cut off"}',
    ]);
    expect(events).toEqual([{ type: 'delta', data: { text: 'a' } }]);
  });

  it('an expired session is refreshed through the app session, then the stream is sent again', async () => {
    const { outcome, events, calls, ended } = await run([stream], { expired: 1 });
    expect(outcome).toEqual({ kind: 'finished' });
    expect(events).toEqual(expected);
    expect(calls.map((url) => url.replace(/^\/api/, ''))).toEqual([
      '/chat/conversations/c1/chat/stream',
      '/auth/refresh',
      '/chat/conversations/c1/chat/stream',
    ]);
    expect(ended).toEqual([]);
  });

  it('a refused refresh ends the session and fails the reply', async () => {
    const { outcome, ended } = await run([stream], { expired: 1, refreshStatus: 401 });
    expect(outcome).toEqual({ kind: 'failed', status: 401, message: SESSION_ERRORS.refreshFailed });
    expect(ended).toEqual([SESSION_ERRORS.refreshFailed]);
  });

  it('turns known events with JSON data into stream events and ignores the rest', () => {
    expect(toStreamEvent('delta', '{"text":"a"}')).toEqual({ type: 'delta', data: { text: 'a' } });
    expect(toStreamEvent('delta', 'not json')).toBeNull();
    expect(toStreamEvent('ping', '{}')).toBeNull();
  });

  it('sends a question about one recording to the recording route, naming the recording and the conversation', async () => {
    const { outcome, events, calls, bodies } = await run([stream], { fileId: 'f1' });
    expect(outcome).toEqual({ kind: 'finished' });
    expect(events).toEqual(expected);
    expect(calls).toEqual(['/api/chat/analysis-conversations/chat/stream']);
    expect(bodies).toEqual([{ message: 'Hi', fileId: 'f1', conversationId: 'c1' }]);
  });
});
