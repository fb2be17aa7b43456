// `?t=` of the viewer's address: where a link (a chat citation, a shared moment) opens the
// recording. Seconds ("5", "12.5") or m:ss ("1:05"); anything else is ignored.
export function parseStartTime(value: string | null): number | null {
  if (!value) return null;
  const text = value.trim();
  const clock = /^(\d{1,4}):([0-5]\d)$/.exec(text);
  if (clock) return Number(clock[1]) * 60 + Number(clock[2]);
  if (!/^\d{1,6}(\.\d{1,3})?$/.test(text)) return null;
  return Number(text);
}

/** A start time inside the recording (a link past the end opens at the end). */
export function clampStart(time: number, duration: number): number {
  return duration > 0 ? Math.min(Math.max(0, time), duration) : Math.max(0, time);
}
