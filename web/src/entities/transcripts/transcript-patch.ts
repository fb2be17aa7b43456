// Applying an edit's answer (TranscriptPatch) to the cached transcript, so an edit of a 100,000-word
// transcript costs the changed segments, not a refetch. Unit tested in transcript-patch.test.ts.
import type { TranscriptPatch, TranscriptSpeakerDto } from '@earshot/contracts';
import type { Segment, Speaker } from './model';

/** The editor's speakers as the transcript keeps them (`label` is the name); channels are kept. */
export function speakersFrom(dtos: readonly TranscriptSpeakerDto[], previous: readonly Speaker[]): Speaker[] {
  const channels = new Map(previous.map((speaker) => [speaker.id, speaker.channel]));
  return dtos.map((dto) => ({
    id: dto.speakerId,
    label: dto.name,
    color: dto.color,
    channel: channels.get(dto.speakerId) ?? null,
  }));
}

/**
 * The segments after a patch: `removed` go, `segments` replace theirs by id or are added, and the
 * whole is sorted by start (ties keep their order before; new ones after the old ones).
 */
export function patchSegments(
  segments: readonly Segment[],
  patch: Pick<TranscriptPatch, 'removed' | 'segments'>,
): Segment[] {
  const removed = new Set(patch.removed);
  const changed = new Map(patch.segments.map((segment) => [segment._id, segment]));
  const next: Array<{ segment: Segment; order: number }> = [];
  segments.forEach((segment, order) => {
    if (removed.has(segment._id)) return;
    const replacement = changed.get(segment._id);
    changed.delete(segment._id);
    next.push({ segment: replacement ?? segment, order });
  });
  let order = segments.length;
  for (const segment of changed.values()) next.push({ segment, order: order++ });
  next.sort((a, b) => a.segment.start - b.segment.start || a.order - b.order);
  return next.map((item) => item.segment);
}
