import { randomUUID } from 'node:crypto';
import Fastify, {
  LogController,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import underPressure from '@fastify/under-pressure';
import {
  serializerCompiler,
  validatorCompiler,
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { ENCRYPTION_KEY_MISSING, ERROR_CODES, MESSAGES } from '@earshot/contracts';
import { MasterKeyMissingError } from './crypto/master-key';
import { HttpError } from './errors';
import { loggerOptions } from './logger';
import { countShed, instrumentRequests } from './metrics';
import { traceIdOf, traceRequests } from './request-spans';

export type App = FastifyInstance;
export type { ZodTypeProvider };

export interface ServerOptions {
  logLevel: string;
  name: string;
  bodyLimit?: number;
  trustProxy?: boolean;
  /** Answers unknown routes instead of the JSON 404 (the gateway serves the web app's shell). */
  notFound?: (request: FastifyRequest, reply: FastifyReply) => unknown;
  /** Set a pino instance to share one logger (all-in-one). */
  logger?: FastifyServerOptions['loggerInstance'];
  /** Answer 503 at once when saturated instead of queueing; omit to never shed. */
  loadShedding?: LoadShedding;
}

export interface LoadShedding {
  /** Mean event-loop delay (ms) above which requests are refused; 0 = not checked. */
  maxEventLoopDelayMs: number;
  /**
   * Refuse new requests while a queue stands: every request answered during the last second took
   * longer than this (ms). 0 = not checked.
   */
  maxQueueDelayMs: number;
  /** What the 503's Retry-After says. */
  retryAfterSeconds: number;
  /** Extra readiness check (e.g. a dependency); false sheds. Run at start and every `healthCheckIntervalMs`. */
  healthCheck?: () => Promise<boolean>;
  healthCheckIntervalMs?: number;
  /** The clock (ms) the queue check reads; tests drive their own. */
  now?: () => number;
}

/** Load shedding from the validated configuration (tests opt in, so a slow test machine sheds nothing). */
export function loadSheddingFrom(config: {
  NODE_ENV: string;
  LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS?: number;
  LOAD_SHED_MAX_QUEUE_DELAY_MS?: number;
  LOAD_SHED_RETRY_AFTER_SECONDS: number;
}): LoadShedding {
  const testing = config.NODE_ENV === 'test';
  return {
    maxEventLoopDelayMs: config.LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS ?? (testing ? 0 : 500),
    maxQueueDelayMs: config.LOAD_SHED_MAX_QUEUE_DELAY_MS ?? (testing ? 0 : DEFAULT_MAX_QUEUE_DELAY_MS),
    retryAfterSeconds: config.LOAD_SHED_RETRY_AFTER_SECONDS,
  };
}

/** See docs/performance.md, "Load shedding": at 200 connections the fastest answer of a second stays far below it. */
const DEFAULT_MAX_QUEUE_DELAY_MS = 500;

/**
 * Whether requests are queueing, by CoDel's rule (Nichols and Jacobson, 2012): a queue that stands,
 * rather than a burst that passes, shows as a whole interval in which even the fastest request took
 * longer than the target. Waits on the database pool do not delay the event loop, yet they show
 * here. An interval with few answers says nothing (a quiet server with one long upload or chat
 * stream is not overloaded), so it never starts shedding.
 */
export class QueueMonitor {
  private intervalStart: number;
  private fastest = Infinity;
  private answers = 0;
  private standing = false;

  constructor(
    private readonly targetMs: number,
    private readonly now: () => number = () => performance.now(),
    private readonly intervalMs = 1000,
    private readonly minAnswers = 20,
  ) {
    this.intervalStart = now();
  }

  /** A request was answered `ms` after it arrived. */
  record(ms: number): void {
    this.roll();
    if (ms < this.fastest) this.fastest = ms;
    this.answers++;
  }

  /** True while the last full interval showed a standing queue. */
  get overloaded(): boolean {
    this.roll();
    return this.standing;
  }

  private roll() {
    const now = this.now();
    if (now - this.intervalStart < this.intervalMs) return;
    // An interval longer than one (no request came for a while) holds only what it saw.
    this.standing = this.answers >= this.minAnswers && this.fastest > this.targetMs;
    this.intervalStart = now;
    this.fastest = Infinity;
    this.answers = 0;
  }
}

/** The first string holding a NUL byte, as `where.path.to.field`: PostgreSQL cannot store one in text. */
export function findNul(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (value === null || typeof value !== 'object' || depth > 64 || Buffer.isBuffer(value)) return null;
  // A stream is a body not parsed here (the distributed gateway hands the request on to the service,
  // which checks it): walking one would walk its socket and server, and hold the event loop for minutes.
  if (typeof (value as { pipe?: unknown }).pipe === 'function') return null;
  for (const [key, inner] of Object.entries(value)) {
    if (key.includes('\u0000')) return `${path}.${key.replaceAll('\u0000', '\\u0000')}`;
    const found = findNul(inner, `${path}.${key}`, depth + 1);
    if (found) return found;
  }
  return null;
}

const CONTEXT_NAMES: Record<string, string> = {
  body: 'body',
  querystring: 'query',
  params: 'params',
  headers: 'headers',
};

export function routeNotFound(request: FastifyRequest, reply: FastifyReply) {
  return reply
    .code(404)
    .send({ message: `Route ${request.method} ${request.url.split('?')[0]} not found`, code: ERROR_CODES.NOT_FOUND });
}

/** Turns fastify/zod validation errors into `{message, code, details}` naming each field. */
export function validationBody(error: FastifyError & { validation?: unknown[]; validationContext?: string }) {
  const where = CONTEXT_NAMES[error.validationContext ?? 'body'] ?? 'body';
  const details = (error.validation ?? []).map((v) => {
    const issue = v as {
      instancePath?: string;
      message?: string;
      params?: { issue?: { path?: (string | number)[]; keys?: string[] } };
    };
    const path =
      issue.params?.issue?.path?.join('.') ?? issue.instancePath?.replace(/^\//, '').replace(/\//g, '.') ?? '';
    const keys = issue.params?.issue?.keys;
    const field = [where, path, keys?.length ? keys.join(',') : ''].filter(Boolean).join('.');
    return { field, message: issue.message ?? 'Invalid value' };
  });
  const first = details[0];
  return {
    message: first ? `Invalid ${first.field}: ${first.message}` : 'Invalid request',
    code: ERROR_CODES.VALIDATION,
    details,
  };
}

/** Liveness and readiness probes: polled every few seconds, a line each would drown the rest. */
const PROBE = /(^|\/)(health|ready)$/;

/**
 * One log line per request, written when it is answered (Fastify writes two: received and
 * completed), none for the probes, each with the trace id that finds it among the spans: the
 * request's server span when tracing is on, the request id otherwise, so a line and its trace meet.
 */
class RequestLog extends LogController {
  override isLogDisabled(request: FastifyRequest): boolean {
    return PROBE.test(request.routeOptions?.url ?? request.url.split('?')[0]!);
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const line = {
      req: request,
      res: { statusCode: reply.statusCode },
      responseTime: Math.round(reply.elapsedTime),
      traceId: traceIdOf(request) ?? request.id,
    };
    if (error) request.log.error({ ...line, err: error }, 'request errored');
    else request.log.info(line, 'request completed');
  }
}

/**
 * The Fastify instance every service and the gateway start from: zod schemas for validation and
 * serialisation, request ids, and one error format. Nothing internal leaks from a 5xx.
 */
export function buildServer(options: ServerOptions): FastifyInstance {
  const app = Fastify({
    ...(options.logger
      ? { loggerInstance: options.logger }
      : { logger: loggerOptions(options.logLevel, options.name) }),
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    trustProxy: options.trustProxy ?? false,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    logController: new RequestLog(),
    ajv: undefined,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
  }).withTypeProvider<ZodTypeProvider>();

  traceRequests(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  instrumentRequests(app);

  // One rule for every route: a NUL byte anywhere in the input is the caller's mistake (400 naming
  // the field), not a database error (500). Runs before each route's own schema.
  app.addHook('preValidation', async (request) => {
    const field = findNul(request.params, 'params') ?? findNul(request.query, 'query') ?? findNul(request.body, 'body');
    if (field)
      throw new HttpError(400, `Invalid ${field}: must not contain a NUL character`, ERROR_CODES.VALIDATION, [
        { field, message: 'must not contain a NUL character' },
      ]);
  });

  const shedding = options.loadShedding;
  // Starting (migrations, the demo seed through inject) stalls the loop by design: shed only the
  // traffic that arrives once the server listens.
  let listening = false;
  // Liveness must keep answering, or the orchestrator restarts a process that is merely busy.
  const sheddable = (request: FastifyRequest) => listening && !/(^|\/)health$/.test(request.routeOptions.url ?? '');
  const shed = (reply: FastifyReply, retryAfterSeconds: number) =>
    reply
      .code(503)
      .header('retry-after', String(retryAfterSeconds))
      .send({ message: 'The server is busy, try again shortly', code: 'SERVICE_UNAVAILABLE' });
  if (shedding) {
    app.addHook('onListen', async () => {
      listening = true;
    });
  }
  if (shedding && shedding.maxQueueDelayMs > 0) {
    const queue = new QueueMonitor(shedding.maxQueueDelayMs, shedding.now);
    // Refused requests are answered at once: counting them would end the shedding they are part of.
    const refused = new WeakSet<FastifyRequest>();
    app.addHook('onRequest', async (request, reply) => {
      if (!sheddable(request) || !queue.overloaded) return;
      refused.add(request);
      countShed('queue');
      return shed(reply, shedding.retryAfterSeconds);
    });
    app.addHook('onResponse', async (request, reply) => {
      if (sheddable(request) && !refused.has(request)) queue.record(reply.elapsedTime);
    });
  }
  if (shedding && (shedding.maxEventLoopDelayMs > 0 || shedding.healthCheck)) {
    void app.register(underPressure, {
      maxEventLoopDelay: shedding.maxEventLoopDelayMs,
      healthCheck: shedding.healthCheck,
      healthCheckInterval: shedding.healthCheck ? (shedding.healthCheckIntervalMs ?? 5000) : undefined,
      pressureHandler: (request, reply, type) => {
        // Fastify runs nothing more for a request whose reply is already sent.
        if (!sheddable(request)) return;
        countShed(type === 'healthCheck' ? 'health' : type === 'eventLoopDelay' ? 'event_loop' : 'other');
        void shed(reply, shedding.retryAfterSeconds);
      },
    });
  }

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) return reply.code(400).send(validationBody(error));
    if (error instanceof HttpError) {
      if (error.headers) reply.headers(error.headers);
      return reply.code(error.statusCode).send({ message: error.message, code: error.code, details: error.details });
    }
    // Encryption at rest without a master key, wherever a write or read hit it: the operator's
    // fix, so the message naming the variable goes to the caller (and the log), never a bare 500.
    if (error instanceof MasterKeyMissingError) {
      request.log.error({ err: error }, 'encryption at rest needs a master key');
      return reply.code(503).send({ message: error.message, code: ENCRYPTION_KEY_MISSING });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response did not match its schema');
      return reply.code(500).send({ message: MESSAGES.internal, code: ERROR_CODES.INTERNAL });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const code =
        error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
          ? ERROR_CODES.TOO_LARGE
          : error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
            ? ERROR_CODES.UNSUPPORTED
            : status === 429
              ? ERROR_CODES.RATE_LIMITED
              : ERROR_CODES.BAD_REQUEST;
      const message =
        error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError
          ? 'Malformed JSON body'
          : error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
            ? 'The JSON body is empty'
            : error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
              ? 'The request body is too large'
              : error.message;
      return reply.code(status).send({ message, code });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ message: MESSAGES.internal, code: ERROR_CODES.INTERNAL });
  });

  app.setNotFoundHandler(options.notFound ?? routeNotFound);

  return app as unknown as FastifyInstance;
}
