// Formatting rules of the transcripts screens (unit tested in format.test.ts).

// Shared with the search's results (lib/format-time.ts).
import { formatClock } from '../../lib/format-time';

export { formatClock, formatDate } from '../../lib/format-time';

/** A span of the call analytics: seconds with a decimal under a minute (an overlap of 0.4 s is not "0:00"), else m:ss. */
export function formatSpan(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds <= 0) return '0 s';
  return seconds < 60 ? `${(Math.round(seconds * 10) / 10).toString()} s` : formatClock(seconds);
}

// Shared with the administration pages (storage limits and use).
export { formatSize } from '../../lib/format-size';
