import argon2 from 'argon2';
import { randomBytes } from 'node:crypto';

/** argon2id with the OWASP Password Storage Cheat Sheet's first option: 19 MiB, 2 passes, 1 lane. */
const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, OPTIONS);
}

let dummy: Promise<string> | undefined;
/** A hash nobody knows the password of: verified when an email is unknown, so timing matches. */
function dummyHash(): Promise<string> {
  dummy ??= hashPassword(randomBytes(24).toString('base64url'));
  return dummy;
}

export async function verifyPassword(hash: string | null, password: string): Promise<boolean> {
  try {
    return (await argon2.verify(hash ?? (await dummyHash()), password)) && hash !== null;
  } catch {
    return false;
  }
}

/** Warm up the dummy hash at start so the first unknown-email sign-in is not measurably slower. */
export async function prepareDummyHash(): Promise<void> {
  await dummyHash();
}

/** A readable random password (first-start administrator). */
export function randomPassword(): string {
  return randomBytes(15).toString('base64url');
}
