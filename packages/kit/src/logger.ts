import { createRequire } from 'node:module';
import { Writable } from 'node:stream';
import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import type PinoPretty from 'pino-pretty';

/** Paths that may hold secrets: never written to logs. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.newPassword',
  '*.currentPassword',
  '*.apiKey',
  '*.token',
  '*.refreshToken',
  '*.secret',
];

/**
 * Properties of database errors that carry the statement's values: drizzle's and PGlite's `params`,
 * PostgreSQL's `detail` ("Key (email)=(…)", "Failing row contains (…)") and `where`. A password hash
 * or a sealed key sits there as easily as an email, so none of them is ever logged.
 */
const VALUE_CARRIERS = new Set(['params', 'parameters', 'values', 'detail', 'where', 'queryOptions']);

/** Drops the values a database error message may quote, keeping what helps to debug it. */
function withoutValues(message: string): string {
  return (
    message
      // drizzle: "Failed query: <sql>\nparams: <values>"
      .replace(/\nparams:[\s\S]*$/, '')
      // PostgreSQL: 'invalid input syntax for type uuid: "<value>"'
      .replace(/(invalid input (?:syntax|value) for [^:]*: )"[\s\S]*"/, '$1"[redacted]"')
  );
}

interface SerializedError {
  type: string;
  message: string;
  stack?: string;
  cause?: SerializedError;
  [key: string]: unknown;
}

/**
 * pino's `err` serializer, made safe for database errors at every depth of `cause`: no parameter
 * values, no row details, and the message (which drizzle and the stack repeat) without values.
 */
export function serializeError(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error)) return error;
  const message = withoutValues(error.message);
  const out: SerializedError = { type: error.constructor?.name ?? error.name, message };
  for (const [key, value] of Object.entries(error)) {
    if (VALUE_CARRIERS.has(key) || key === 'cause' || typeof value === 'function') continue;
    out[key] = typeof value === 'string' ? withoutValues(value) : value;
  }
  if (error.stack) {
    const frames = error.stack.indexOf('\n    at ');
    out.stack = `${error.name}: ${message}${frames >= 0 ? error.stack.slice(frames) : ''}`;
  }
  if (error.cause !== undefined && depth < 5) out.cause = serializeError(error.cause, depth + 1) as SerializedError;
  return out;
}

export interface LoggerDestination {
  /** Human-readable lines (development) instead of JSON (production, tests, log collectors). */
  pretty?: boolean;
  /** Where lines go; standard output by default. */
  stream?: DestinationStream;
}

/**
 * Addresses that are themselves the credential (a personal iCalendar feed's secret): their secret
 * part never reaches a log line, in the service that answers nor in the gateway that proxies.
 */
const SECRET_ADDRESSES = /(\/calendar\/feed\/)[^/?#]+/g;
export const withoutSecretAddresses = (url: string): string => url.replace(SECRET_ADDRESSES, '$1[redacted]');

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** Fastify's own request fields, with the secret part of an address left out. */
const serializeRequest = (req: LoggedRequest) => ({
  method: req.method,
  url: req.url === undefined ? undefined : withoutSecretAddresses(req.url),
  host: req.host,
  remoteAddress: req.ip,
  remotePort: req.socket?.remotePort,
});

export function loggerOptions(level: string, name?: string): LoggerOptions {
  return {
    level,
    name,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: { err: serializeError, error: serializeError, req: serializeRequest },
  };
}

export function createLogger(level: string, name?: string, destination: LoggerDestination = {}): Logger {
  const stream = destination.stream ?? pino.destination(1);
  if (!destination.pretty) return pino(loggerOptions(level, name), stream);
  // Loaded only for development's readable lines: production and every service log JSON, and the
  // module is 1.4 MB of heap in each process. Required, as a logger is made synchronously.
  const pinoPretty = createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;
  return pino(
    loggerOptions(level, name),
    pinoPretty({
      destination: stream,
      colorize: process.stdout.isTTY,
      ignore: 'pid,hostname',
      translateTime: 'SYS:HH:MM:ss.l',
    }),
  );
}

/**
 * Holds log lines until `release()`, then writes them (and everything after) through: the first
 * start prints its banner (URL, passwords) before the dozens of lines logged while starting.
 */
export class HeldStream extends Writable {
  private held: Buffer[] | null = [];

  constructor(private readonly target: NodeJS.WritableStream) {
    super();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (this.held) {
      this.held.push(chunk);
      callback();
    } else {
      this.target.write(chunk, callback);
    }
  }

  release(): void {
    const held = this.held ?? [];
    this.held = null;
    for (const chunk of held) this.target.write(chunk);
  }
}

export type { Logger };
