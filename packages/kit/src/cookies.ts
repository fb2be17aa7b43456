import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BaseConfig } from './config';

/**
 * Secure cookies whenever the console is served over https: COOKIE_SECURE=auto follows PUBLIC_URL
 * when it is https, else the request's protocol, which behind TRUST_PROXY is the forwarded one
 * (X-Forwarded-Proto).
 */
export function cookieIsSecure(
  config: Pick<BaseConfig, 'COOKIE_SECURE' | 'PUBLIC_URL'>,
  request: FastifyRequest,
): boolean {
  if (config.COOKIE_SECURE !== 'auto') return config.COOKIE_SECURE === 'true';
  return config.PUBLIC_URL?.startsWith('https:') === true || request.protocol === 'https';
}

export interface CookieOptions {
  path: string;
  /** Seconds; undefined makes a session cookie (gone when the browser closes). */
  maxAge?: number;
  /** Strict unless a cross-site top-level navigation must carry it (an OAuth callback's state: Lax). */
  sameSite?: 'strict' | 'lax';
}

/** An httpOnly cookie through @fastify/cookie (the auth guard registers it on every server). */
export function setCookie(
  reply: FastifyReply,
  secure: boolean,
  name: string,
  value: string,
  options: CookieOptions,
): void {
  reply.setCookie(name, value, {
    path: options.path,
    httpOnly: true,
    sameSite: options.sameSite ?? 'strict',
    secure,
    ...(options.maxAge === undefined ? {} : { maxAge: options.maxAge }),
  });
}

export function clearCookie(reply: FastifyReply, secure: boolean, name: string, path: string): void {
  reply.clearCookie(name, { path, httpOnly: true, sameSite: 'strict', secure });
}
