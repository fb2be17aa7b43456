// Route guard and return-URL rules (spec parts 4 and 5), as pure functions over storage so that
// the router components stay thin and the rules are unit tested.
import type { Role } from '@earshot/contracts/constants';
import { rolesForPath } from './roles';
import { readStoredUser, roleOf } from './stored-user';
import { STORAGE_KEYS, type KeyValueStorage } from './storage-keys';

/** Pages anyone may open without signing in. */
export const PUBLIC_PATHS = [
  '/signin',
  '/signup',
  '/two-step-verification',
  '/reset-password',
  '/success',
  '/error-404',
  '/error-500',
  '/error-503',
  '/maintenance',
  '/coming-soon',
] as const;

export const HOME_AFTER_SIGNIN = '/';
export const HOME_FOR_SIGNED_IN = '/chat';

export function isPublicPath(pathname: string): boolean {
  return (PUBLIC_PATHS as readonly string[]).includes(pathname);
}

export type AccessDecision =
  | { kind: 'allow' }
  | { kind: 'signin'; returnUrl: string }
  /** `forbidden`: the page asked for, with the roles it needs, so the landing page can say why. */
  | { kind: 'redirect'; to: string; forbidden?: Forbidden };

export interface Forbidden {
  path: string;
  roles: readonly Role[];
}

/**
 * A page that needs sign-in: no stored user → remember the path and go to /signin. A path with a
 * role list → the stored user's role must be on it, else /chat, told which page needed which roles;
 * unreadable user data → /chat.
 */
export function decideProtectedAccess(path: string, storage: KeyValueStorage): AccessDecision {
  const stored = readStoredUser(storage);
  if (stored.status === 'none') return { kind: 'signin', returnUrl: path };
  const roles = rolesForPath(path);
  if (!roles) return { kind: 'allow' };
  if (stored.status === 'invalid') return { kind: 'redirect', to: HOME_FOR_SIGNED_IN };
  const role = roleOf(stored.user);
  if (role && roles.includes(role)) return { kind: 'allow' };
  return { kind: 'redirect', to: HOME_FOR_SIGNED_IN, forbidden: { path: path.split(/[?#]/)[0] ?? path, roles } };
}

/** Applies a decision's storage side: the intended path becomes the return URL. */
export function rememberReturnUrl(storage: KeyValueStorage, decision: AccessDecision): void {
  if (decision.kind === 'signin') storage.setItem(STORAGE_KEYS.returnUrl, decision.returnUrl);
}

/**
 * The stored return URL when it is valid: it parses as a URL of this site (never another origin),
 * is not a sign-in page, and for a role-restricted path the stored user has the role. Unreadable
 * stored user data makes it invalid and removes it. Does not otherwise remove it.
 */
export function validReturnUrl(storage: KeyValueStorage, origin: string): string | null {
  const raw = storage.getItem(STORAGE_KEYS.returnUrl);
  if (!raw) return null;
  const stored = readStoredUser(storage);
  if (stored.status === 'invalid') {
    storage.removeItem(STORAGE_KEYS.returnUrl);
    return null;
  }
  let url: URL;
  try {
    url = new URL(raw, origin);
  } catch {
    return null;
  }
  if (url.origin !== new URL(origin).origin) return null;
  if (isPublicPath(url.pathname)) return null;
  const roles = rolesForPath(url.pathname);
  if (roles) {
    const role = stored.status === 'ok' ? roleOf(stored.user) : null;
    if (!role || !roles.includes(role)) return null;
  }
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Reads the return URL once and removes it; `fallback` when there is none or it is invalid. */
export function consumeReturnUrl(storage: KeyValueStorage, origin: string, fallback: string): string {
  const url = validReturnUrl(storage, origin);
  storage.removeItem(STORAGE_KEYS.returnUrl);
  return url ?? fallback;
}

/** Where a signed-in user who opens /signin or /signup goes; null when they may stay. */
export function signedInLanding(storage: KeyValueStorage, origin: string): string | null {
  if (readStoredUser(storage).status === 'none') return null;
  return validReturnUrl(storage, origin) ?? HOME_FOR_SIGNED_IN;
}
