import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ACCESS_COOKIE, REFRESH_COOKIE, clearCookie, cookieIsSecure, readCookie, setCookie, type Db } from '@earshot/kit';
import type { Role } from '@earshot/contracts';
import type { UserRow } from '../db/schema';
import { findRefreshToken, insertRefreshToken } from '../repositories/tokens';
import { findCompany } from '../repositories/companies';
import type { AuthContext } from './context';
import { randomToken, sha256 } from './crypto';

export const REFRESH_PATH = '/api/auth';
/** Server-side life of a session that is not remembered (its cookies end with the browser anyway). */
const SESSION_REFRESH_SECONDS = 24 * 3600;

/** Company statuses that stop their people from signing in (other statuses, e.g. active or trial, allow it). */
const BLOCKED_COMPANY_STATUSES = new Set(['inactive', 'suspended', 'disabled', 'blocked', 'archived', 'deleted']);

export interface Session {
  refreshToken: string;
  familyId: string;
  remember: boolean;
  refreshSeconds: number;
}

function refreshSeconds(ctx: AuthContext, remember: boolean): number {
  return remember ? ctx.config.REFRESH_TOKEN_TTL_DAYS * 86_400 : SESSION_REFRESH_SECONDS;
}

/** A disabled account, or one whose company is gone or switched off, cannot sign in or refresh. */
export async function accountBlocked(db: Db, user: UserRow): Promise<boolean> {
  if (user.status !== 'active') return true;
  if (user.companyId === null) return false;
  const company = await findCompany(db, user.companyId);
  return !company || BLOCKED_COMPANY_STATUSES.has(company.status.toLowerCase());
}

/** Stores a new refresh token; a rotation passes the family it continues. */
export async function startSession(ctx: AuthContext, tx: Db, userId: string, remember: boolean, familyId: string = randomUUID()): Promise<Session> {
  const refreshToken = randomToken();
  const seconds = refreshSeconds(ctx, remember);
  await insertRefreshToken(tx, { tokenHash: sha256(refreshToken), familyId, userId, remember, expiresAt: new Date(Date.now() + seconds * 1000) });
  return { refreshToken, familyId, remember, refreshSeconds: seconds };
}

/** Signs the access token and sets both cookies: persistent with "remember me", else session cookies. */
export async function writeSessionCookies(ctx: AuthContext, request: FastifyRequest, reply: FastifyReply, user: UserRow, session: Session): Promise<string> {
  const token = await ctx.tokens.sign({ userId: user.id, companyId: user.companyId, role: user.role as Role, email: user.email });
  const secure = cookieIsSecure(ctx.config, request);
  setCookie(reply, secure, ACCESS_COOKIE, token, { path: '/', maxAge: session.remember ? ctx.tokens.ttl : undefined });
  setCookie(reply, secure, REFRESH_COOKIE, session.refreshToken, { path: REFRESH_PATH, maxAge: session.remember ? session.refreshSeconds : undefined });
  return token;
}

export function clearSessionCookies(ctx: AuthContext, request: FastifyRequest, reply: FastifyReply): void {
  const secure = cookieIsSecure(ctx.config, request);
  clearCookie(reply, secure, ACCESS_COOKIE, '/');
  clearCookie(reply, secure, REFRESH_COOKIE, REFRESH_PATH);
}

/** The session family of the caller's refresh cookie, if any (to keep it when ending the others). */
export async function currentFamily(ctx: AuthContext, request: FastifyRequest): Promise<string | undefined> {
  const token = readCookie(request, REFRESH_COOKIE);
  if (!token) return undefined;
  return (await findRefreshToken(ctx.db, sha256(token)))?.familyId;
}
