import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { ERROR_CODES, MESSAGES } from '@earshot/contracts';
import { HttpError } from './errors';
import { loggerOptions } from './logger';

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
}

const CONTEXT_NAMES: Record<string, string> = { body: 'body', querystring: 'query', params: 'params', headers: 'headers' };

export function routeNotFound(request: FastifyRequest, reply: FastifyReply) {
  return reply.code(404).send({ message: `Route ${request.method} ${request.url.split('?')[0]} not found`, code: ERROR_CODES.NOT_FOUND });
}

/** Turns fastify/zod validation errors into `{message, code, details}` naming each field. */
function validationBody(error: FastifyError & { validation?: unknown[]; validationContext?: string }) {
  const where = CONTEXT_NAMES[error.validationContext ?? 'body'] ?? 'body';
  const details = (error.validation ?? []).map((v) => {
    const issue = v as { instancePath?: string; message?: string; params?: { issue?: { path?: (string | number)[]; keys?: string[] } } };
    const path = issue.params?.issue?.path?.join('.') ?? issue.instancePath?.replace(/^\//, '').replace(/\//g, '.') ?? '';
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

/**
 * The Fastify instance every service and the gateway start from: zod schemas for validation and
 * serialisation, request ids, and one error format. Nothing internal leaks from a 5xx.
 */
export function buildServer(options: ServerOptions): FastifyInstance {
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: loggerOptions(options.logLevel, options.name) }),
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    trustProxy: options.trustProxy ?? false,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    ajv: undefined,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) return reply.code(400).send(validationBody(error));
    if (error instanceof HttpError) {
      if (error.headers) reply.headers(error.headers);
      return reply.code(error.statusCode).send({ message: error.message, code: error.code, details: error.details });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response did not match its schema');
      return reply.code(500).send({ message: MESSAGES.internal, code: ERROR_CODES.INTERNAL });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const code =
        error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? ERROR_CODES.TOO_LARGE
        : error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ? ERROR_CODES.UNSUPPORTED
        : status === 429 ? ERROR_CODES.RATE_LIMITED
        : ERROR_CODES.BAD_REQUEST;
      const message =
        error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError ? 'Malformed JSON body'
        : error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ? 'The JSON body is empty'
        : error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? 'The request body is too large'
        : error.message;
      return reply.code(status).send({ message, code });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ message: MESSAGES.internal, code: ERROR_CODES.INTERNAL });
  });

  app.setNotFoundHandler(options.notFound ?? routeNotFound);

  return app as unknown as FastifyInstance;
}
