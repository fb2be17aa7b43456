import type * as Otp from 'otplib';

// TOTP (RFC 6238) with otplib: SHA-1, 6 digits, 30-second steps, as authenticator apps expect.
// otplib is loaded at the first use: only two-step sign-ins and their set-up need it.
export const STEP_SECONDS = 30;

const otplib = (): Promise<typeof Otp> => import('otplib');

/** A 160-bit secret, base32 as authenticator apps take it. */
export async function generateSecret(): Promise<string> {
  return (await otplib()).generateSecret({ length: 20 });
}

/** The time step the code belongs to (current ±1, for clock drift), or null. */
export async function matchStep(secret: string, code: string, now = Date.now()): Promise<number | null> {
  // Outside the try: a library that cannot load is a failure, never "no match".
  const { verifySync } = await otplib();
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

export async function otpauthUrl(issuer: string, account: string, secret: string): Promise<string> {
  return (await otplib()).generateURI({ strategy: 'totp', issuer, label: account, secret, period: STEP_SECONDS });
}
