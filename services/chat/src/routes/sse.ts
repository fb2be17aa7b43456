import type { FastifyReply, FastifyRequest } from 'fastify';
import { unrefInterval } from '@earshot/kit';
import type { ReplySink } from '../services/replies';

/** Keeps idle proxies from closing a stream while a slow model thinks. */
const HEARTBEAT_MS = 15_000;

export interface SseStream {
  sink: ReplySink;
  /** Aborted when the client closes the connection before the reply is complete. */
  signal: AbortSignal;
  end(): void;
}

/**
 * Takes the response over from Fastify and opens a Server-Sent Events stream on it: each event
 * is written (and so flushed) at once; nothing on the way may buffer or compress it.
 */
export function openSse(request: FastifyRequest, reply: FastifyReply): SseStream {
  reply.hijack();
  const raw = reply.raw;
  const controller = new AbortController();
  raw.on('close', () => {
    if (!raw.writableEnded) controller.abort();
  });
  raw.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    'x-accel-buffering': 'no',
    'x-request-id': request.id,
  });
  const send = (event: string, data: unknown) => {
    if (!raw.writableEnded && !raw.destroyed) raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  const heartbeat = unrefInterval(() => {
    if (!raw.writableEnded && !raw.destroyed) raw.write(': keep-alive\n\n');
  }, HEARTBEAT_MS);
  return {
    sink: {
      start: (event) => send('start', event),
      delta: (text) => send('delta', { text }),
      done: (event) => send('done', event),
      error: (event) => send('error', event),
    },
    signal: controller.signal,
    end() {
      clearInterval(heartbeat);
      if (!raw.writableEnded) raw.end();
    },
  };
}
