import { pino, type Logger, type LoggerOptions } from 'pino';

/** Paths that may hold secrets: never written to logs. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.newPassword',
  '*.currentPassword',
  '*.apiKey',
  '*.token',
  '*.refreshToken',
  '*.secret',
];

export function loggerOptions(level: string, name?: string): LoggerOptions {
  return { level, name, redact: { paths: REDACT_PATHS, censor: '[redacted]' } };
}

export function createLogger(level: string, name?: string): Logger {
  return pino(loggerOptions(level, name));
}

export type { Logger };
