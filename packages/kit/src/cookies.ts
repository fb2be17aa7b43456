import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BaseConfig } from './config';

/** Secure cookies outside plain local http: 'auto' follows the request's protocol. */
export function cookieIsSecure(config: Pick<BaseConfig, 'COOKIE_SECURE'>, request: FastifyRequest): boolean {
  if (config.COOKIE_SECURE === 'auto') return request.protocol === 'https';
  return config.COOKIE_SECURE === 'true';
}

export interface CookieOptions {
  path: string;
  /** Seconds; undefined makes a session cookie (gone when the browser closes). */
  maxAge?: number;
  /** Strict unless a cross-site top-level navigation must carry it (an OAuth callback's state: Lax). */
  sameSite?: 'Strict' | 'Lax';
}

export function setCookie(reply: FastifyReply, secure: boolean, name: string, value: string, options: CookieOptions): void {
  const parts = [`${name}=${encodeURIComponent(value)}`, `Path=${options.path}`, 'HttpOnly', `SameSite=${options.sameSite ?? 'Strict'}`];
  if (options.maxAge !== undefined) parts.push(`Max-Age=${options.maxAge}`);
  if (secure) parts.push('Secure');
  appendSetCookie(reply, parts.join('; '));
}

export function clearCookie(reply: FastifyReply, secure: boolean, name: string, path: string): void {
  appendSetCookie(reply, `${name}=; Path=${path}; HttpOnly; SameSite=Strict; Max-Age=0${secure ? '; Secure' : ''}`);
}

/** Fastify appends to set-cookie itself (re-setting the list would send every earlier cookie twice). */
function appendSetCookie(reply: FastifyReply, value: string) {
  reply.header('set-cookie', value);
}
