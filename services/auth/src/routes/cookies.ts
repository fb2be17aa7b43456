import type { FastifyReply, FastifyRequest } from 'fastify';
import { ACCESS_COOKIE, REFRESH_COOKIE, clearCookie, cookieIsSecure, identityOf, readCookie, setCookie } from '@earshot/kit';
import type { UserRow } from '../db/schema';
import type { AuthContext, Caller } from '../services/context';
import { accessToken, type Session } from '../services/sessions';
import { TWO_STEP_SECONDS, type SignInOutcome } from '../services/sign-in';
import { KNOWN_DEVICE_COOKIE, KNOWN_DEVICE_SECONDS } from '../services/throttle';

// The HTTP side of sessions: which cookies carry them, where, and for how long. Services get the
// cookies' values as plain data (Caller) and never see the request or reply.

export const AUTH_PATH = '/api/auth';
export const TWO_STEP_COOKIE = 'earshot_2fa';
/** The OAuth flow (state, PKCE verifier) between the start and the provider's redirect back. */
export const FLOW_COOKIE = 'earshot_oauth';
export const FLOW_PATH = '/api/auth/provider';

/** Where the console was reached (for the OAuth redirect URI when PUBLIC_URL is unset). */
export function originOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/** The caller as service methods take it. */
export function callerOf(request: FastifyRequest): Caller {
  return {
    ip: request.ip,
    identity: request.identity,
    refreshToken: readCookie(request, REFRESH_COOKIE),
    twoStepToken: readCookie(request, TWO_STEP_COOKIE),
    knownDevice: readCookie(request, KNOWN_DEVICE_COOKIE),
  };
}

/** The caller of a route that requires a session. */
export function signedInCaller(request: FastifyRequest): Caller {
  return { ...callerOf(request), identity: identityOf(request) };
}

/** Signs the access token and sets both cookies: persistent with "remember me", else session cookies. */
export async function writeSessionCookies(ctx: AuthContext, request: FastifyRequest, reply: FastifyReply, user: UserRow, session: Session): Promise<string> {
  const token = await accessToken(ctx, user, session);
  const secure = cookieIsSecure(ctx.config, request);
  setCookie(reply, secure, ACCESS_COOKIE, token, { path: '/', maxAge: session.remember ? ctx.signer.ttl : undefined });
  setCookie(reply, secure, REFRESH_COOKIE, session.refreshToken, { path: AUTH_PATH, maxAge: session.remember ? session.refreshSeconds : undefined });
  return token;
}

export function clearSessionCookies(ctx: AuthContext, request: FastifyRequest, reply: FastifyReply): void {
  const secure = cookieIsSecure(ctx.config, request);
  clearCookie(reply, secure, ACCESS_COOKIE, '/');
  clearCookie(reply, secure, REFRESH_COOKIE, AUTH_PATH);
}

/** Turns a sign-in outcome into cookies: the session, or the short-lived pending two-step cookie. */
export async function answerSignIn(ctx: AuthContext, request: FastifyRequest, reply: FastifyReply, outcome: SignInOutcome): Promise<'session' | 'two_step'> {
  const secure = cookieIsSecure(ctx.config, request);
  if (outcome.knownDevice) setCookie(reply, secure, KNOWN_DEVICE_COOKIE, outcome.knownDevice, { path: AUTH_PATH, maxAge: KNOWN_DEVICE_SECONDS });
  if (outcome.kind === 'two_step') {
    setCookie(reply, secure, TWO_STEP_COOKIE, outcome.challenge, { path: AUTH_PATH, maxAge: TWO_STEP_SECONDS });
    return 'two_step';
  }
  if (readCookie(request, TWO_STEP_COOKIE)) clearCookie(reply, secure, TWO_STEP_COOKIE, AUTH_PATH);
  await writeSessionCookies(ctx, request, reply, outcome.user, outcome.session);
  return 'session';
}
