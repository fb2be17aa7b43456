import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ACCESS_COOKIE,
  REFRESH_COOKIE,
  clearCookie,
  cookieIsSecure,
  identityOf,
  readCookie,
  setCookie,
} from '@earshot/kit';
import type { UserRow } from '../db/schema';
import type { AuthContext, Caller } from '../services/context';
import { accessToken, type Session } from '../services/sessions';
import { PASSWORD_CHANGE_SECONDS, TWO_STEP_SECONDS, type SignInOutcome } from '../services/sign-in';
import { KNOWN_DEVICE_COOKIE, KNOWN_DEVICE_SECONDS } from '../services/throttle';

// The HTTP side of sessions: which cookies carry them, where, and for how long. Services get the
// cookies' values as plain data (Caller) and never see the request or reply.

export const AUTH_PATH = '/api/auth';
export const TWO_STEP_COOKIE = 'earshot_2fa';
/** The pending sign-in after a one-time password, until the new password is chosen. */
export const PASSWORD_CHANGE_COOKIE = 'earshot_pwc';
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
    userAgent: request.headers['user-agent'],
    identity: request.identity,
    refreshToken: readCookie(request, REFRESH_COOKIE),
    twoStepToken: readCookie(request, TWO_STEP_COOKIE),
    passwordChangeToken: readCookie(request, PASSWORD_CHANGE_COOKIE),
    knownDevice: readCookie(request, KNOWN_DEVICE_COOKIE),
  };
}

/** The caller of a route that requires a session. */
export function signedInCaller(request: FastifyRequest): Caller {
  return { ...callerOf(request), identity: identityOf(request) };
}

/** Signs the access token and sets both cookies: persistent with "remember me", else session cookies. */
export async function writeSessionCookies(
  ctx: AuthContext,
  request: FastifyRequest,
  reply: FastifyReply,
  user: UserRow,
  session: Session,
): Promise<string> {
  const token = await accessToken(ctx, user, session);
  const secure = cookieIsSecure(ctx.config, request);
  setCookie(reply, secure, ACCESS_COOKIE, token, { path: '/', maxAge: session.remember ? ctx.signer.ttl : undefined });
  setCookie(reply, secure, REFRESH_COOKIE, session.refreshToken, {
    path: AUTH_PATH,
    maxAge: session.remember ? session.refreshSeconds : undefined,
  });
  return token;
}

export function clearSessionCookies(ctx: AuthContext, request: FastifyRequest, reply: FastifyReply): void {
  const secure = cookieIsSecure(ctx.config, request);
  clearCookie(reply, secure, ACCESS_COOKIE, '/');
  clearCookie(reply, secure, REFRESH_COOKIE, AUTH_PATH);
}

/** Each pending step's cookie and life. */
const STEP_COOKIES = {
  two_step: { name: TWO_STEP_COOKIE, seconds: TWO_STEP_SECONDS },
  password_change: { name: PASSWORD_CHANGE_COOKIE, seconds: PASSWORD_CHANGE_SECONDS },
} as const;

/** Turns a sign-in outcome into cookies: the session, or the short-lived cookie of the pending step. */
export async function answerSignIn(
  ctx: AuthContext,
  request: FastifyRequest,
  reply: FastifyReply,
  outcome: SignInOutcome,
): Promise<SignInOutcome['kind']> {
  const secure = cookieIsSecure(ctx.config, request);
  if (outcome.knownDevice)
    setCookie(reply, secure, KNOWN_DEVICE_COOKIE, outcome.knownDevice, {
      path: AUTH_PATH,
      maxAge: KNOWN_DEVICE_SECONDS,
    });
  // A step done leaves no cookie behind: the two-step one once the password step follows, both at the session.
  for (const [kind, cookie] of Object.entries(STEP_COOKIES)) {
    if (kind !== outcome.kind && readCookie(request, cookie.name)) clearCookie(reply, secure, cookie.name, AUTH_PATH);
  }
  if (outcome.kind !== 'session') {
    const cookie = STEP_COOKIES[outcome.kind];
    setCookie(reply, secure, cookie.name, outcome.challenge, { path: AUTH_PATH, maxAge: cookie.seconds });
    return outcome.kind;
  }
  await writeSessionCookies(ctx, request, reply, outcome.user, outcome.session);
  return 'session';
}
