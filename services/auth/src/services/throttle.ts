import { tooMany, type Db } from '@earshot/kit';
import { clearKey, lockedFor, recordFailure, type ThrottlePolicy } from '../repositories/throttle';

/**
 * Sign-in throttling (documented in README.md). Strict per account and address; loose per address;
 * per account across addresses only a short lock, so a stranger cannot keep a person out for long.
 */
export const POLICIES = {
  accountIp: { limit: 5, windowSeconds: 15 * 60, lockSeconds: 15 * 60 },
  ip: { limit: 50, windowSeconds: 15 * 60, lockSeconds: 15 * 60 },
  account: { limit: 10, windowSeconds: 15 * 60, lockSeconds: 60 },
} satisfies Record<string, ThrottlePolicy>;

export interface ThrottleKeys {
  accountIp: string;
  ip: string;
  account: string;
}

/** Keys for a password sign-in (the account is the email within the domain asked for). */
export function passwordKeys(email: string, domain: string | undefined, ip: string): ThrottleKeys {
  const account = `${domain ?? '*'}|${email}`;
  return { accountIp: `pw:${account}|${ip}`, ip: `ip:${ip}`, account: `pw:${account}` };
}

/** Keys for two-step codes: per user, sharing the per-address budget with passwords. */
export function codeKeys(userId: string, ip: string): ThrottleKeys {
  return { accountIp: `code:${userId}|${ip}`, ip: `ip:${ip}`, account: `code:${userId}` };
}

/** Seconds the caller must wait, or 0. */
export function waitFor(db: Db, keys: ThrottleKeys): Promise<number> {
  return lockedFor(db, [keys.accountIp, keys.ip, keys.account]);
}

export function throttled(seconds: number) {
  return tooMany(seconds);
}

export async function countFailure(tx: Db, keys: ThrottleKeys): Promise<void> {
  await recordFailure(tx, keys.accountIp, POLICIES.accountIp);
  await recordFailure(tx, keys.ip, POLICIES.ip);
  await recordFailure(tx, keys.account, POLICIES.account);
}

/** A success clears the (account, address) counter; the wider counters simply age out. */
export async function countSuccess(tx: Db, keys: ThrottleKeys): Promise<void> {
  await clearKey(tx, keys.accountIp);
}
