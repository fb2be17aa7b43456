// A tiny store of the playback position and the highlighted segment/word. Rows of the virtual list
// subscribe to the one value that concerns them (useSyncExternalStore), so moving the highlight
// re-renders at most the row that loses it and the row that gains it — never the list.
import { createContext, useContext, useSyncExternalStore } from 'react';
import { findActive, NOTHING_ACTIVE, type Active } from './highlight';
import type { Segment } from './model';

export interface PlaybackStore {
  setSegments: (segments: readonly Segment[], duration: number) => void;
  setTime: (time: number) => void;
  /** Playback finished: clear the highlight. */
  clear: () => void;
  setPlaying: (playing: boolean) => void;
  getTime: () => number;
  getActive: () => Active;
  isPlaying: () => boolean;
  subscribe: (listener: () => void) => () => void;
}

export function createPlaybackStore(): PlaybackStore {
  let segments: readonly Segment[] = [];
  let duration = 0;
  let time = 0;
  let playing = false;
  let active: Active = NOTHING_ACTIVE;
  const listeners = new Set<() => void>();
  const emit = () => listeners.forEach((listener) => listener());
  const recompute = () => {
    const next = findActive(segments, time, duration);
    if (next.segmentId !== active.segmentId || next.wordId !== active.wordId) active = next;
  };
  return {
    setSegments(next, nextDuration) {
      segments = next;
      duration = nextDuration;
      recompute();
      emit();
    },
    setTime(next) {
      time = next;
      recompute();
      emit();
    },
    clear() {
      active = NOTHING_ACTIVE;
      playing = false;
      emit();
    },
    setPlaying(next) {
      playing = next;
      emit();
    },
    getTime: () => time,
    getActive: () => active,
    isPlaying: () => playing,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export const PlaybackContext = createContext<PlaybackStore | null>(null);

export function usePlaybackStore(): PlaybackStore {
  const store = useContext(PlaybackContext);
  if (!store) throw new Error('PlaybackContext is missing');
  return store;
}

/**
 * For one row: null when the segment is not the current one, '' when it is but no word is being
 * spoken, else the spoken word's id.
 */
export function useRowHighlight(segmentId: string): string | null {
  const store = usePlaybackStore();
  const get = () => {
    const active = store.getActive();
    return active.segmentId === segmentId ? (active.wordId ?? '') : null;
  };
  return useSyncExternalStore(store.subscribe, get, get);
}

/** Whole seconds of the position (the clock re-renders once a second, not once a frame). */
export function useWholeSeconds(): number {
  const store = usePlaybackStore();
  const get = () => Math.floor(store.getTime());
  return useSyncExternalStore(store.subscribe, get, get);
}

export function useIsPlaying(): boolean {
  const store = usePlaybackStore();
  return useSyncExternalStore(store.subscribe, store.isPlaying, store.isPlaying);
}
