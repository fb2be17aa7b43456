import { HOLD_MESSAGES } from '@earshot/contracts';
import { conflict, RetentionProjection, type Db } from '@earshot/kit';

/**
 * The legal holds of recordings, clients and companies, from the file and tenant
 * services' hold_changed events: a held recording's transcript is not deleted (the file service
 * would keep the recording anyway, see its transcript.deleted handler).
 */
export const legalHolds = new RetentionProjection('transcription', ['file', 'client', 'company']);

/** 409 naming the hold when one covers this recording. */
export async function assertNotHeld(
  tx: Db,
  recording: { companyId: string; fileId: string; clientId: string | null },
): Promise<void> {
  const kind = await legalHolds.holdOn(tx, recording);
  if (kind) throw conflict(HOLD_MESSAGES[kind]);
}
