import { randomInt } from 'node:crypto';
import type { Db } from '@earshot/kit';
import type { UserRow } from '../db/schema';
import { consumeRecoveryCode, replaceRecoveryCodes } from '../repositories/recovery-codes';
import { claimTwoStepStep } from '../repositories/users';
import type { AuthContext } from './context';
import { sha256 } from './crypto';
import { matchStep } from './totp';

/** How many recovery codes turning two-step on gives. */
export const RECOVERY_CODE_COUNT = 10;
/** Without look-alikes (0/o, 1/l/i), since people copy them from paper. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

function recoveryCode(): string {
  const chars = Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]!);
  return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
}

/** The stored form of a recovery code: as typed in any case, with or without its dash. */
const recoveryHash = (code: string) => sha256(code.trim().toLowerCase().replace('-', ''));

/** A new set of recovery codes for the user (older ones stop working); the codes are answered once. */
export async function newRecoveryCodes(tx: Db, userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, recoveryCode);
  await replaceRecoveryCodes(tx, userId, codes.map(recoveryHash));
  return codes;
}

/**
 * Uses a code for an account with two-step on: six digits from the app (each time step once), or
 * one of the recovery codes (each once). False for anything else.
 */
export async function useTwoStepCode(ctx: AuthContext, db: Db, user: UserRow, code: string): Promise<boolean> {
  if (!user.twoStepSecret) return false;
  if (/^\d{6}$/.test(code)) {
    const step = await matchStep(ctx.box.open(user.twoStepSecret), code);
    return step !== null && claimTwoStepStep(db, user.id, step);
  }
  return consumeRecoveryCode(db, user.id, recoveryHash(code));
}
