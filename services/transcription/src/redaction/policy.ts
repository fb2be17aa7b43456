import { isId, type EventOf } from '@earshot/contracts';
import type { Db } from '@earshot/kit';
import type { TranscriptResult } from '../repositories/transcripts';
import { findRedactionMode, findRedactionPolicy, saveRedactionPolicy } from '../repositories/redaction';
import { discardOriginal, keepOriginal, type OriginalSource } from '../services/originals';
import { silenceStoredAudio } from './audio';
import { redactSegments } from './index';

/** company.policies_changed: the company's redaction mode and keepOriginal, for the transcripts finished from now on. */
export async function applyPoliciesChanged(tx: Db, event: EventOf<'company.policies_changed'>): Promise<void> {
  const { id, after } = event.data;
  if (isId(id))
    await saveRedactionPolicy(
      tx,
      id,
      { mode: after.redaction, keepOriginal: after.keepOriginal },
      new Date(event.occurredAt),
    );
}

/**
 * The result as it may be stored and published under the company's policy: with redaction on,
 * what the detectors find is replaced by labels. The unredacted words are kept only as the
 * encrypted original (keepOriginal, stored by redactAudioForCompany before this runs).
 * Read in the transaction that stores the result, so the policy in force at commit applies.
 */
export async function redactedForCompany(
  tx: Db,
  companyId: string,
  result: TranscriptResult,
): Promise<TranscriptResult> {
  if ((await findRedactionMode(tx, companyId)) === 'off') return result;
  return { ...result, segments: redactSegments(result.segments).segments };
}

/** What audio redaction changed, for transcript.audio_redacted. */
export interface AudioRedaction {
  size: number;
  spans: number;
}

/**
 * The redaction step of a finished run, before its result is stored (storage and ffmpeg do not
 * belong in a transaction; the text is redacted again, under the lease, when it is stored).
 * keepOriginal: when the detectors hide something, the unredacted words (and, with text_audio, the
 * audio before silencing) are kept encrypted first, replacing an earlier run's; a run that hides
 * nothing, or a policy that keeps nothing, removes an earlier original, so an original always
 * belongs to the current transcript. text_audio: silences what the detectors find in the stored
 * recording and replaces the result's peaks with the silenced audio's.
 */
export async function redactAudioForCompany(
  db: Db,
  deps: Parameters<typeof silenceStoredAudio>[0],
  source: OriginalSource,
  result: TranscriptResult,
  dir: string,
  signal: AbortSignal,
): Promise<{ result: TranscriptResult; audio: AudioRedaction | null }> {
  const policy = await findRedactionPolicy(db, source.companyId);
  const { spans } = policy.mode === 'off' ? { spans: [] } : redactSegments(result.segments);
  if (policy.keepOriginal && spans.length)
    await keepOriginal(db, deps.storage, source, result.segments, policy.mode === 'text_audio');
  else await discardOriginal(db, deps.storage, source.fileId);
  if (policy.mode !== 'text_audio' || !spans.length) return { result, audio: null };
  const { peaks, size } = await silenceStoredAudio(deps, source.storageKey, source.mimeType, spans, dir, signal);
  return { result: { ...result, peaks }, audio: { size, spans: spans.length } };
}
