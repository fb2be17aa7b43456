import { randomUUID } from 'node:crypto';
import { tooMany, type Db, type SecretBox } from '@earshot/kit';
import { clearKey, lockedFor, recordFailure, type ThrottlePolicy } from '../repositories/throttle';

/**
 * Sign-in throttling (why: services/auth/README.md). A device that has proven the password before
 * (the sealed known-device cookie) is counted on its own and ignores every other lock, so a
 * stranger can slow down guessing from new devices but cannot keep a person out of their own.
 * New devices are counted per (account, address) strictly, per address loosely, and per account
 * across addresses with only a short lock.
 */
export const POLICIES = {
  device: { limit: 10, windowSeconds: 15 * 60, lockSeconds: 15 * 60 },
  accountIp: { limit: 5, windowSeconds: 15 * 60, lockSeconds: 15 * 60 },
  ip: { limit: 50, windowSeconds: 15 * 60, lockSeconds: 5 * 60 },
  account: { limit: 10, windowSeconds: 15 * 60, lockSeconds: 60 },
} satisfies Record<string, ThrottlePolicy>;

export interface ThrottleKey {
  key: string;
  policy: ThrottlePolicy;
}
/** The first key is the narrowest: a success clears it. */
export type ThrottleKeys = [ThrottleKey, ...ThrottleKey[]];

export const KNOWN_DEVICE_COOKIE = 'earshot_kd';
export const KNOWN_DEVICE_SECONDS = 180 * 86_400;

/** The account a password sign-in names: the email within the domain asked for. */
export function accountKey(email: string, domain: string | undefined): string {
  return `${domain ?? '*'}|${email}`;
}

/** The device id of a known-device cookie that proved this account's password, if it is genuine and fresh. */
export function knownDevice(box: SecretBox, cookie: string | undefined, account: string): string | null {
  if (!cookie) return null;
  try {
    const { a, d, e } = JSON.parse(box.open(cookie)) as { a?: unknown; d?: unknown; e?: unknown };
    return a === account && typeof d === 'string' && typeof e === 'number' && e > Date.now() ? d : null;
  } catch {
    return null;
  }
}

/** A sealed known-device cookie for the account just proven (keeping the device id it had). */
export function knownDeviceCookie(box: SecretBox, account: string, deviceId: string | null): string {
  return box.seal(
    JSON.stringify({ a: account, d: deviceId ?? randomUUID(), e: Date.now() + KNOWN_DEVICE_SECONDS * 1000 }),
  );
}

/** Keys for a password sign-in from a known device, or from anywhere else. */
export function passwordKeys(account: string, ip: string, deviceId: string | null): ThrottleKeys {
  if (deviceId) return [{ key: `dev:${deviceId}|${account}`, policy: POLICIES.device }];
  return [
    { key: `pw:${account}|${ip}`, policy: POLICIES.accountIp },
    { key: `ip:${ip}`, policy: POLICIES.ip },
    { key: `pw:${account}`, policy: POLICIES.account },
  ];
}

/** Keys for two-step codes: per user, sharing the per-address budget with passwords. */
export function codeKeys(userId: string, ip: string): ThrottleKeys {
  return [
    { key: `code:${userId}|${ip}`, policy: POLICIES.accountIp },
    { key: `ip:${ip}`, policy: POLICIES.ip },
    { key: `code:${userId}`, policy: POLICIES.account },
  ];
}

/** Seconds the caller must wait, or 0. */
export function waitFor(db: Db, keys: ThrottleKeys): Promise<number> {
  return lockedFor(
    db,
    keys.map((k) => k.key),
  );
}

export function throttled(seconds: number) {
  return tooMany(seconds);
}

export async function countFailure(tx: Db, keys: ThrottleKeys): Promise<void> {
  for (const { key, policy } of keys) await recordFailure(tx, key, policy);
}

/** A success clears the narrowest counter; the wider ones simply age out. */
export async function countSuccess(tx: Db, keys: ThrottleKeys): Promise<void> {
  await clearKey(tx, keys[0].key);
}
