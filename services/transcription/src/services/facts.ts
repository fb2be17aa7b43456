import { speakerName, type SpeakerInfo, type SpeakerSegment, type TranscriptSegmentFact } from '@earshot/contracts';
import type { NewEvent } from '@earshot/kit';

/** The segments as other services learn them: named by the transcript's speakers. */
export function segmentFacts(
  segments: readonly SpeakerSegment[],
  speakers: readonly SpeakerInfo[],
): TranscriptSegmentFact[] {
  return segments.map((s) => ({
    segmentId: s._id,
    speaker: speakerName(s.speakerId, speakers),
    speakerId: s.speakerId,
    start: s.start,
    end: s.end ?? s.words[s.words.length - 1]?.end ?? s.start,
    text: s.text,
  }));
}

/** transcript.speakers_changed: the whole list by name (after every completion and every rename or merge). */
export function speakersEvent(
  companyId: string,
  transcript: { id: string; fileId: string },
  speakers: readonly SpeakerInfo[],
  actor: NewEvent['actor'],
): NewEvent {
  return {
    type: 'transcript.speakers_changed',
    companyId,
    actor,
    data: { ...transcript, speakers: speakers.map((s) => ({ speakerId: s.id, name: speakerName(s.id, speakers) })) },
  };
}
