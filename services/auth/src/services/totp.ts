import { generateSecret as newSecret, generateURI, verifySync } from 'otplib';

// TOTP (RFC 6238) with otplib: SHA-1, 6 digits, 30-second steps, as authenticator apps expect.
export const STEP_SECONDS = 30;

/** A 160-bit secret, base32 as authenticator apps take it. */
export function generateSecret(): string {
  return newSecret({ length: 20 });
}

/** The time step the code belongs to (current ±1, for clock drift), or null. */
export function matchStep(secret: string, code: string, now = Date.now()): number | null {
  try {
    const result = verifySync({
      strategy: 'totp',
      secret,
      token: code,
      epoch: Math.floor(now / 1000),
      period: STEP_SECONDS,
      epochTolerance: STEP_SECONDS,
    });
    return result.valid && 'timeStep' in result ? result.timeStep : null;
  } catch {
    // A malformed code (wrong length, not digits) is simply not a match.
    return null;
  }
}

export function otpauthUrl(issuer: string, account: string, secret: string): string {
  return generateURI({ strategy: 'totp', issuer, label: account, secret, period: STEP_SECONDS });
}
