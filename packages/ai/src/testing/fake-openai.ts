import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake provider answers to one chat completion request. */
export interface FakeReply {
  /** The reply text in the pieces a stream sends (one `delta.content` each). */
  pieces?: string[];
  /** Wait before each piece (a slow stream, for stop tests). */
  delayMs?: number;
  /** Token counts to report; by default prompt ≈ characters sent / 4, completion = pieces. */
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  /** Answer with this HTTP status and an OpenAI-style error body instead. */
  error?: { status: number; message: string; type?: string; code?: string | null };
  /** Drop the connection after the pieces, without finishing the stream (a provider that dies). */
  hangUp?: boolean;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (null for GET). */
  body: {
    model?: string;
    stream?: boolean;
    messages?: { role: string; content: string }[];
    [key: string]: unknown;
  } | null;
  /** Set once the exchange is over: true when the client went away before the answer was complete. */
  aborted: boolean | null;
  /** Resolves when the exchange is over, with `aborted`. */
  closed: Promise<boolean>;
}

export interface FakeOpenAI {
  /** Base URL as OpenAI clients take it, ending in /v1. */
  url: string;
  requests: RecordedRequest[];
  /** The answer to every request that has no queued answer. */
  setReply(reply: FakeReply): void;
  /** Answers the next request with this, once (queued in order). */
  queueReply(reply: FakeReply): void;
  /** Model ids GET /v1/models lists. */
  models: string[];
  /**
   * `response_format` types this provider refuses with a 400 naming the field (as providers
   * without structured outputs do), e.g. ['json_schema'].
   */
  refuseResponseFormats: string[];
  /**
   * How POST /v1/embeddings turns a text into a vector (by default `hashedEmbedding` with 64
   * dimensions); the `model` asked for is passed so a test can tell models apart.
   */
  embed: (text: string, model: string) => number[];
  /** Answer the embeddings endpoint with this error instead (null: answer). */
  embeddingsError: { status: number; message: string } | null;
  close(): Promise<void>;
}

/**
 * A deterministic bag-of-words vector: each word (lower case, letters and digits) adds 1 to one of
 * `dimensions` slots picked by a hash of the word and `seed`. Texts sharing words point the same
 * way, so nearest-vector search behaves like a (crude) real embeddings model.
 */
export function hashedEmbedding(text: string, dimensions = 64, seed = ''): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    let h = 2166136261;
    for (const c of seed + word) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
    vector[(h >>> 0) % dimensions]! += 1;
  }
  return vector;
}

const DEFAULT_REPLY: FakeReply = { pieces: ['Hello', ' from', ' the', ' fake', ' provider.'] };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

function usageFor(reply: FakeReply, body: RecordedRequest['body']) {
  if (reply.usage) return reply.usage;
  const sent = (body?.messages ?? []).reduce((n, m) => n + String(m.content ?? '').length, 0);
  const prompt = Math.ceil(sent / 4);
  const completion = reply.pieces?.length ?? 0;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

/**
 * A real local HTTP server speaking the OpenAI chat completions API as documented: streamed
 * `chat.completion.chunk` lines (`data: {...}` then `data: [DONE]`), the usage chunk when
 * `stream_options.include_usage` is set, plain JSON answers, OpenAI-style error bodies and
 * GET /v1/models, and POST /v1/embeddings (deterministic vectors, see hashedEmbedding). Each test scripts the answers and reads what the client sent.
 */
export async function startFakeOpenAI(): Promise<FakeOpenAI> {
  const requests: RecordedRequest[] = [];
  const queue: FakeReply[] = [];
  let fallback = DEFAULT_REPLY;
  const state = {
    models: ['fake-model'],
    refused: [] as string[],
    embed: ((text: string) => hashedEmbedding(text)) as (text: string, model: string) => number[],
    embeddingsError: null as { status: number; message: string } | null,
  };

  const server = createServer((request, response) => {
    void (async () => {
      const raw = await readBody(request);
      let settle!: (aborted: boolean) => void;
      const record: RecordedRequest = {
        method: request.method ?? 'GET',
        path: (request.url ?? '/').split('?')[0]!,
        headers: request.headers,
        body: raw ? (JSON.parse(raw) as RecordedRequest['body']) : null,
        aborted: null,
        closed: new Promise<boolean>((r) => (settle = r)),
      };
      requests.push(record);
      response.on('close', () => {
        record.aborted = !response.writableFinished;
        settle(record.aborted);
      });

      if (record.method === 'GET' && record.path === '/v1/models') {
        json(response, 200, {
          object: 'list',
          data: state.models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'earshot-test' })),
        });
        return;
      }
      if (record.method === 'POST' && record.path === '/v1/embeddings') {
        if (state.embeddingsError) {
          json(response, state.embeddingsError.status, {
            error: { message: state.embeddingsError.message, type: 'server_error', param: null, code: null },
          });
          return;
        }
        const input = record.body?.input;
        const texts = Array.isArray(input) ? input.map(String) : [String(input ?? '')];
        const model = String(record.body?.model ?? 'fake-embeddings');
        const tokens = texts.reduce((n, t) => n + Math.ceil(t.length / 4), 0);
        json(response, 200, {
          object: 'list',
          model,
          data: texts.map((text, index) => ({ object: 'embedding', index, embedding: state.embed(text, model) })),
          usage: { prompt_tokens: tokens, total_tokens: tokens },
        });
        return;
      }
      if (record.method !== 'POST' || record.path !== '/v1/chat/completions') {
        json(response, 404, {
          error: { message: `Unknown path ${record.path}`, type: 'invalid_request_error', param: null, code: null },
        });
        return;
      }
      const format = (record.body?.response_format as { type?: string } | undefined)?.type;
      if (format && state.refused.includes(format)) {
        json(response, 400, {
          error: {
            message: `response_format.type '${format}' is not supported by this model`,
            type: 'invalid_request_error',
            param: 'response_format',
            code: null,
          },
        });
        return;
      }
      const reply = queue.shift() ?? fallback;
      if (reply.error) {
        const { status, message, type = 'invalid_request_error', code = null } = reply.error;
        json(response, status, { error: { message, type, param: null, code } });
        return;
      }
      const id = `chatcmpl-${Math.random().toString(36).slice(2)}`;
      const created = Math.floor(Date.now() / 1000);
      const model = record.body?.model ?? 'fake-model';
      const pieces = reply.pieces ?? [];
      const usage = usageFor(reply, record.body);
      if (!record.body?.stream) {
        json(response, 200, {
          id,
          object: 'chat.completion',
          created,
          model,
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: pieces.join(''), refusal: null },
              logprobs: null,
              finish_reason: 'stop',
            },
          ],
          usage,
        });
        return;
      }

      response.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
      });
      const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, system_fingerprint: null, choices, ...extra })}\n\n`;
      const choice = (delta: Record<string, unknown>, finish: string | null = null) => ({
        index: 0,
        delta,
        logprobs: null,
        finish_reason: finish,
      });
      response.write(chunk([choice({ role: 'assistant', content: '', refusal: null })]));
      for (const piece of pieces) {
        if (reply.delayMs) await sleep(reply.delayMs);
        if (response.destroyed) return;
        response.write(chunk([choice({ content: piece })]));
      }
      if (reply.hangUp) {
        // Let what was written reach the client first: destroy() drops unsent data.
        await new Promise<void>((resolve) => response.write('', () => resolve()));
        response.destroy();
        return;
      }
      response.write(chunk([choice({}, 'stop')]));
      const options = record.body.stream_options as { include_usage?: boolean } | undefined;
      if (options?.include_usage) response.write(chunk([], { usage }));
      response.end('data: [DONE]\n\n');
    })().catch((error: unknown) => {
      if (!response.headersSent)
        json(response, 500, { error: { message: String(error), type: 'server_error', param: null, code: null } });
      else response.destroy();
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    setReply(reply) {
      fallback = reply;
    },
    queueReply(reply) {
      queue.push(reply);
    },
    get models() {
      return state.models;
    },
    set models(ids: string[]) {
      state.models = ids;
    },
    get refuseResponseFormats() {
      return state.refused;
    },
    set refuseResponseFormats(types: string[]) {
      state.refused = types;
    },
    get embed() {
      return state.embed;
    },
    set embed(fn: (text: string, model: string) => number[]) {
      state.embed = fn;
    },
    get embeddingsError() {
      return state.embeddingsError;
    },
    set embeddingsError(error: { status: number; message: string } | null) {
      state.embeddingsError = error;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
