import type { AudioType } from './audio-sniffer';

/**
 * A rate assumed for formats whose first bytes do not say how long they play (compressed speech
 * is usually 32-128 kbit/s): the lower end, so a reservation errs on the larger side.
 */
export const FALLBACK_BITS_PER_SECOND = 64_000;

/** MPEG audio layer III bitrates (kbit/s) by index: MPEG-1, then MPEG-2/2.5. */
const MP3_KBPS = {
  v1: [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  v2: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};

const bySize = (size: number) => (size * 8) / FALLBACK_BITS_PER_SECOND;

/** WAV: the data chunk's length over the format chunk's byte rate (a streamed file's length says 0 or all ones). */
function wavSeconds(head: Buffer, size: number): number | null {
  let byteRate = 0;
  for (let at = 12; at + 8 <= head.length;) {
    const id = head.toString('latin1', at, at + 4);
    const length = head.readUInt32LE(at + 4);
    if (id === 'fmt ' && at + 20 <= head.length) byteRate = head.readUInt32LE(at + 16);
    if (id === 'data') {
      if (byteRate <= 0) return null;
      const available = size - (at + 8);
      const declared = length === 0 || length === 0xffffffff ? available : Math.min(length, available);
      return Math.max(0, declared) / byteRate;
    }
    at += 8 + length + (length % 2);
  }
  return null;
}

/** FLAC: STREAMINFO, the first metadata block, holds the sample rate and the total samples. */
function flacSeconds(head: Buffer): number | null {
  if (head.length < 8 + 18 || head.toString('latin1', 0, 4) !== 'fLaC' || (head[4]! & 0x7f) !== 0) return null;
  const info = 8;
  const rate = (head[info + 10]! << 12) | (head[info + 11]! << 4) | (head[info + 12]! >> 4);
  const samples = (head[info + 13]! & 0x0f) * 2 ** 32 + head.readUInt32BE(info + 14);
  return rate > 0 && samples > 0 ? samples / rate : null;
}

/** MPEG audio sampling rates (Hz) by index: MPEG-1, MPEG-2, MPEG-2.5. */
const MP3_RATES = { v1: [44100, 48000, 32000], v2: [22050, 24000, 16000], v25: [11025, 12000, 8000] };

/**
 * MP3: the frame count of a Xing/Info header in the first frame (what encoders write, for VBR
 * too), else the first frame's bitrate over the bytes after any ID3v2 tag (constant bitrate).
 */
function mp3Seconds(head: Buffer, size: number): number | null {
  let at = 0;
  if (head.toString('latin1', 0, 3) === 'ID3' && head.length >= 10) {
    const tag = ((head[6]! & 0x7f) << 21) | ((head[7]! & 0x7f) << 14) | ((head[8]! & 0x7f) << 7) | (head[9]! & 0x7f);
    at = 10 + tag + (head[5]! & 0x10 ? 10 : 0);
  }
  if (at + 4 > head.length || head[at] !== 0xff || (head[at + 1]! & 0xe0) !== 0xe0) return null;
  const version = (head[at + 1]! >> 3) & 0x03;
  const layer = (head[at + 1]! >> 1) & 0x03;
  if (layer !== 0x01 || version === 0x01) return null;
  const mpeg1 = version === 0x03;
  const rate = (mpeg1 ? MP3_RATES.v1 : version === 0x02 ? MP3_RATES.v2 : MP3_RATES.v25)[(head[at + 2]! >> 2) & 0x03];
  // The Xing/Info tag sits after the side information, within the first frame's first 40 bytes.
  const frame = head.subarray(at, at + 48).toString('latin1');
  const tag = Math.max(frame.indexOf('Xing'), frame.indexOf('Info'));
  if (rate && tag >= 0 && at + tag + 12 <= head.length && head.readUInt32BE(at + tag + 4) & 0x01) {
    return (head.readUInt32BE(at + tag + 8) * (mpeg1 ? 1152 : 576)) / rate;
  }
  const kbps = (mpeg1 ? MP3_KBPS.v1 : MP3_KBPS.v2)[head[at + 2]! >> 4];
  return kbps ? ((size - at) * 8) / (kbps * 1000) : null;
}

/**
 * How many seconds an upload plays, from its first bytes (the sniffed head) and its size: exact
 * for WAV and FLAC and for MP3 with a Xing/Info header or a constant bitrate, else its size at FALLBACK_BITS_PER_SECOND. Only
 * an estimate, for the credits a transcription reserves; the transcript's real length settles them.
 */
export function estimateSeconds(head: Buffer, type: AudioType, size: number): number {
  const exact =
    type.format === 'wav'
      ? wavSeconds(head, size)
      : type.format === 'flac'
        ? flacSeconds(head)
        : type.format === 'mp3'
          ? mp3Seconds(head, size)
          : null;
  return Math.round((exact ?? bySize(size)) * 1000) / 1000;
}
