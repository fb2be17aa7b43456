import { isId, type EventOf } from '@earshot/contracts';
import type { Db } from '@earshot/kit';
import type { TranscriptResult } from '../repositories/transcripts';
import { findRedactionMode, saveRedactionMode } from '../repositories/redaction';
import { silenceStoredAudio } from './audio';
import { redactSegments } from './index';

/** company.policies_changed: the company's redaction mode, for the transcripts finished from now on. */
export async function applyPoliciesChanged(tx: Db, event: EventOf<'company.policies_changed'>): Promise<void> {
  if (isId(event.data.id)) await saveRedactionMode(tx, event.data.id, event.data.after.redaction, new Date(event.occurredAt));
}

/**
 * The result as it may be stored and published under the company's policy: with redaction on,
 * what the detectors find is replaced by labels. The unredacted words are not kept anywhere
 * (the tenant service refuses the policy that would keep them, keepOriginal, until it exists).
 * Read in the transaction that stores the result, so the policy in force at commit applies.
 */
export async function redactedForCompany(tx: Db, companyId: string, result: TranscriptResult): Promise<TranscriptResult> {
  if ((await findRedactionMode(tx, companyId)) === 'off') return result;
  return { ...result, segments: redactSegments(result.segments).segments };
}

/** What audio redaction changed, for transcript.audio_redacted. */
export interface AudioRedaction {
  size: number;
  spans: number;
}

/**
 * Policy text_audio: silences what the detectors find in the stored recording and replaces the
 * result's peaks with the silenced audio's. Runs before the result is stored (ffmpeg does not
 * belong in a transaction); the text is redacted again, under the lease, when it is stored.
 */
export async function redactAudioForCompany(
  db: Db,
  deps: Parameters<typeof silenceStoredAudio>[0],
  source: { companyId: string; storageKey: string; mimeType: string },
  result: TranscriptResult,
  dir: string,
  signal: AbortSignal,
): Promise<{ result: TranscriptResult; audio: AudioRedaction | null }> {
  if ((await findRedactionMode(db, source.companyId)) !== 'text_audio') return { result, audio: null };
  const { spans } = redactSegments(result.segments);
  if (!spans.length) return { result, audio: null };
  const { peaks, size } = await silenceStoredAudio(deps, source.storageKey, source.mimeType, spans, dir, signal);
  return { result: { ...result, peaks }, audio: { size, spans: spans.length } };
}
