import { useEffect, useRef, useState, type ReactElement } from 'react';
import WaveSurfer from 'wavesurfer.js';
import { speakerName } from '@earshot/contracts/constants';
import { useAppSelector } from '../../lib/store';
import { browserStorage } from '../../lib/storage-keys';
import { formatClock } from './format';
import { segmentEnd } from './highlight';
import { SEGMENT_TINT_OPACITY, WAVEFORM, type Peaks, type Segment, type Speaker } from './model';
import { readSpeed, SPEEDS, writeSpeed } from './playback-speed';
import { togglePlay, usePlayer } from './player';
import { useIsPlaying, usePlaybackStore, useWholeSeconds } from './playback-store';
import { useFeatureTranslation } from '../../i18n/feature';
import { catalogue } from './viewer-i18n';

export type PlayerError = 'fetchAudio' | 'loadAudio' | 'initPlayer' | 'initWaveSurfer';

/** Peaks as wavesurfer channels: maxima above the axis, minima below (never decoded in the browser). */
export function peaksToChannels(peaks: Peaks | null | undefined): number[][] {
  if (!peaks || peaks.data.length < 2) return [[0, 0]];
  const maxima: number[] = new Array(peaks.data.length >> 1);
  const minima: number[] = new Array(peaks.data.length >> 1);
  for (let i = 0; i < maxima.length; i += 1) {
    minima[i] = peaks.data[2 * i] ?? 0;
    maxima[i] = peaks.data[2 * i + 1] ?? 0;
  }
  return [maxima, minima];
}

function Clock({ duration }: { duration: number }): ReactElement {
  const seconds = useWholeSeconds();
  return (
    <span className="shrink-0 text-sm tabular-nums text-gray-700 dark:text-gray-300" data-testid="clock">
      {formatClock(seconds)} / {formatClock(duration)}
    </span>
  );
}

function PlayButton(): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const player = usePlayer();
  const playing = useIsPlaying();
  return (
    <button
      type="button"
      onClick={() => togglePlay(player)}
      aria-label={playing ? t('viewer.pause') : t('viewer.play')}
      data-testid="play-pause"
      className="inline-flex size-10 shrink-0 items-center justify-center rounded-full bg-indigo-600 text-white hover:bg-indigo-700"
    >
      {playing ? (
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-5" fill="currentColor">
          <rect x="5" y="4" width="3.5" height="12" rx="1" />
          <rect x="11.5" y="4" width="3.5" height="12" rx="1" />
        </svg>
      ) : (
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-5" fill="currentColor">
          <path d="M6 4.5v11a1 1 0 0 0 1.5.86l9-5.5a1 1 0 0 0 0-1.72l-9-5.5A1 1 0 0 0 6 4.5Z" />
        </svg>
      )}
    </button>
  );
}

/**
 * The fixed bottom bar: wavesurfer.js drawn from the server's peaks over a streaming <audio>
 * (Range requests), speaker overlays on one canvas, play/pause, speed and the m:ss clock.
 */
export function WaveformBar({
  audioUrl,
  peaks,
  duration,
  startAt = null,
  segments,
  speakers,
  colors,
  onError,
}: {
  audioUrl: string;
  peaks: Peaks | null;
  duration: number;
  /** Where the media starts (?t=), paused. */
  startAt?: number | null;
  segments: Segment[];
  /** For the overlay's tooltip: the speaker's name. */
  speakers: readonly Speaker[];
  colors: Map<string, string>;
  onError: (error: PlayerError) => void;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const store = usePlaybackStore();
  const player = usePlayer();
  const waveRef = useRef<HTMLDivElement>(null);
  const overlayRef = useRef<HTMLCanvasElement>(null);
  const wrapRef = useRef<HTMLDivElement>(null);
  // 0.5–2×, remembered per person (the stored user's id).
  const userId = useAppSelector((state) => state.session.user?._id);
  const [speed, setSpeed] = useState(() => readSpeed(browserStorage(), userId));
  const [left, setLeft] = useState(0);
  const onErrorRef = useRef(onError);
  onErrorRef.current = onError;
  // Only the first position counts: a later change of ?t= must not rebuild the player.
  const startRef = useRef(startAt);

  // Sit under the page content, beside the sidebar, whatever its width.
  useEffect(() => {
    const main = document.getElementById('main');
    if (!main) return undefined;
    const update = () => setLeft(main.getBoundingClientRect().left);
    update();
    const observer = new ResizeObserver(update);
    observer.observe(main);
    window.addEventListener('resize', update);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', update);
    };
  }, []);

  useEffect(() => {
    const container = waveRef.current;
    if (!container) return undefined;
    let media: HTMLAudioElement;
    try {
      media = document.createElement('audio');
      media.preload = 'metadata';
      media.src = audioUrl;
      // Before the metadata arrives this is the default start position: the browser seeks there once it can.
      if (startRef.current) media.currentTime = startRef.current;
    } catch {
      onErrorRef.current('initPlayer');
      return undefined;
    }
    const onMediaError = () => {
      // A network failure (or a refused answer) is 'fetch'; a file the browser cannot play is 'load'.
      onErrorRef.current(media.error?.code === 2 ? 'fetchAudio' : 'loadAudio');
    };
    media.addEventListener('error', onMediaError);
    // Kept in the DOM (hidden) so the page, tests and assistive tools can find the one audio element.
    media.hidden = true;
    wrapRef.current?.appendChild(media);
    let wavesurfer: WaveSurfer;
    try {
      wavesurfer = WaveSurfer.create({
        container,
        media,
        peaks: peaksToChannels(peaks),
        duration,
        height: WAVEFORM.height,
        barWidth: WAVEFORM.barWidth,
        barGap: WAVEFORM.barGap,
        barRadius: WAVEFORM.barRadius,
        waveColor: WAVEFORM.waveColor,
        progressColor: WAVEFORM.progressColor,
        cursorColor: WAVEFORM.progressColor,
        cursorWidth: 1,
        normalize: false,
        dragToSeek: true,
      });
    } catch {
      media.removeEventListener('error', onMediaError);
      onErrorRef.current('initWaveSurfer');
      return undefined;
    }
    player.media = media;
    player.duration = duration;
    const subscriptions = [
      wavesurfer.on('timeupdate', (time) => store.setTime(time)),
      wavesurfer.on('play', () => store.setPlaying(true)),
      wavesurfer.on('pause', () => store.setPlaying(false)),
      wavesurfer.on('finish', () => store.clear()),
    ];
    return () => {
      subscriptions.forEach((off) => off());
      media.removeEventListener('error', onMediaError);
      if (player.media === media) player.media = null;
      wavesurfer.destroy();
      media.pause();
      media.removeAttribute('src');
      media.load();
      media.remove();
    };
  }, [audioUrl, peaks, duration, player, store]);

  useEffect(() => {
    if (player.media) player.media.playbackRate = speed;
  }, [speed, player, audioUrl, peaks, duration]);
  const changeSpeed = (next: number) => {
    setSpeed(next);
    writeSpeed(browserStorage(), userId, next);
  };

  // Speaker overlays: one canvas (a 3-hour call has thousands of segments; one node, not thousands).
  useEffect(() => {
    const canvas = overlayRef.current;
    if (!canvas || duration <= 0) return undefined;
    const draw = () => {
      const width = canvas.clientWidth;
      const height = canvas.clientHeight;
      const ratio = window.devicePixelRatio || 1;
      canvas.width = Math.max(1, Math.round(width * ratio));
      canvas.height = Math.max(1, Math.round(height * ratio));
      const ctx = canvas.getContext?.('2d');
      if (!ctx) return;
      ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
      ctx.clearRect(0, 0, width, height);
      ctx.globalAlpha = SEGMENT_TINT_OPACITY;
      for (const segment of segments) {
        const x0 = (segment.start / duration) * width;
        const x1 = (Math.min(segmentEnd(segment, duration), duration) / duration) * width;
        ctx.fillStyle = colors.get(segment.speakerId) ?? '#64748b';
        ctx.fillRect(x0, 0, Math.max(1, x1 - x0), height);
      }
    };
    draw();
    const observer = new ResizeObserver(draw);
    observer.observe(canvas);
    return () => observer.disconnect();
  }, [segments, colors, duration]);

  // The overlay's tooltip is the name of the speaker under the pointer.
  const onPointerMove = (event: React.PointerEvent<HTMLDivElement>) => {
    const wrap = wrapRef.current;
    if (!wrap || duration <= 0) return;
    const box = wrap.getBoundingClientRect();
    const time = ((event.clientX - box.left) / box.width) * duration;
    let title = '';
    for (let lo = 0, hi = segments.length - 1; lo <= hi;) {
      const mid = (lo + hi) >> 1;
      const segment = segments[mid]!;
      if (segment.start <= time) {
        if (time <= segmentEnd(segment, duration)) title = speakerName(segment.speakerId, speakers);
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (wrap.title !== title) wrap.title = title;
  };

  return (
    <div
      className="fixed right-0 bottom-0 z-30 border-t border-gray-200 bg-white/95 px-4 py-3 backdrop-blur dark:border-gray-800 dark:bg-gray-900/95"
      style={{ left }}
      data-testid="player-bar"
    >
      {/* On a phone the controls leave the waveform too little room beside them (about 100 px at
          375 px), so it takes a row of its own above them. */}
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2 sm:flex-nowrap">
        <PlayButton />
        <div
          ref={wrapRef}
          onPointerMove={onPointerMove}
          className="relative order-first min-w-0 basis-full sm:order-none sm:basis-0 sm:flex-1"
          data-testid="waveform"
          aria-label={t('viewer.waveform')}
          role="group"
        >
          <div ref={waveRef} />
          <canvas
            ref={overlayRef}
            aria-hidden="true"
            data-testid="segment-overlays"
            className="pointer-events-none absolute inset-0 h-full w-full"
          />
        </div>
        <Clock duration={duration} />
        <label className="ml-auto flex shrink-0 sm:ml-0 items-center gap-1 text-xs text-gray-600 dark:text-gray-400">
          <span className="sr-only">{t('viewer.speed')}</span>
          <select
            value={speed}
            onChange={(event) => changeSpeed(Number(event.target.value))}
            title={t('viewer.speed')}
            className="rounded-lg border border-gray-300 bg-white px-2 py-1 text-sm text-gray-800 dark:border-gray-700 dark:bg-gray-800 dark:text-gray-200"
          >
            {SPEEDS.map((value) => (
              <option key={value} value={value}>
                {value}×
              </option>
            ))}
          </select>
        </label>
      </div>
    </div>
  );
}
