// Playback speed 0.5–2×, remembered per person: whoever signs in on a shared browser gets their own.
import { playbackSpeedKey, type KeyValueStorage } from '../../lib/storage-keys';

export const SPEEDS = [0.5, 0.75, 1, 1.25, 1.5, 1.75, 2] as const;

/** The stored speed of this person, 1 when none (or anything else is stored). */
export function readSpeed(storage: KeyValueStorage, userId: string | null | undefined): number {
  if (!userId) return 1;
  const stored = Number(storage.getItem(playbackSpeedKey(userId)));
  return (SPEEDS as readonly number[]).includes(stored) ? stored : 1;
}

export function writeSpeed(storage: KeyValueStorage, userId: string | null | undefined, speed: number): void {
  if (userId) storage.setItem(playbackSpeedKey(userId), String(speed));
}
