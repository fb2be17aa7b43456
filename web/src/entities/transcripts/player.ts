// The viewer's handle on the audio element, shared by the list (seek on click) and the keyboard.
import { createContext, useContext } from 'react';
import { SEEK_PLAY_DELAY_MS } from './model';
import type { PlaybackStore } from './playback-store';

export interface Player {
  media: HTMLMediaElement | null;
  duration: number;
}

export function seek(player: Player, store: PlaybackStore, time: number): void {
  const media = player.media;
  const max = player.duration > 0 ? player.duration : Number.POSITIVE_INFINITY;
  const target = Math.min(Math.max(0, time), max);
  if (media) media.currentTime = target;
  store.setTime(target);
}

/** Clicking a word: seek to its start and play after 100 ms. */
export function seekAndPlay(player: Player, store: PlaybackStore, time: number): void {
  seek(player, store, time);
  setTimeout(() => {
    void player.media?.play().catch(() => undefined);
  }, SEEK_PLAY_DELAY_MS);
}

export function togglePlay(player: Player): void {
  const media = player.media;
  if (!media) return;
  if (media.paused) void media.play().catch(() => undefined);
  else media.pause();
}

export const PlayerContext = createContext<Player>({ media: null, duration: 0 });
export const usePlayer = (): Player => useContext(PlayerContext);
