import { fileTypeFromBuffer } from 'file-type';

/** What the first bytes of an upload say it is. */
export interface AudioType {
  format: 'wav' | 'mp3' | 'mp4' | 'aac' | 'ogg' | 'webm' | 'mkv' | 'flac';
  mimeType: string;
}

/**
 * How many bytes the sniffer wants before it decides (file-type's own advice for a reliable
 * answer). The first chunk of an upload is usually larger; a shorter file is sniffed whole.
 */
export const SNIFF_BYTES = 4100;

/**
 * file-type's answers that are audio we accept, and what we store for them. MP4-family containers
 * (M4A, plain ISO MP4, 3GP) are stored as audio/mp4; image brands such as HEIC/AVIF come back as
 * images and are refused. Ogg video (Theora) and QuickTime are not here.
 */
const ACCEPTED: Record<string, AudioType> = {
  wav: { format: 'wav', mimeType: 'audio/wav' },
  mp3: { format: 'mp3', mimeType: 'audio/mpeg' },
  mp2: { format: 'mp3', mimeType: 'audio/mpeg' },
  mp1: { format: 'mp3', mimeType: 'audio/mpeg' },
  flac: { format: 'flac', mimeType: 'audio/flac' },
  ogg: { format: 'ogg', mimeType: 'audio/ogg' },
  oga: { format: 'ogg', mimeType: 'audio/ogg' },
  opus: { format: 'ogg', mimeType: 'audio/ogg' },
  spx: { format: 'ogg', mimeType: 'audio/ogg' },
  aac: { format: 'aac', mimeType: 'audio/aac' },
  m4a: { format: 'mp4', mimeType: 'audio/mp4' },
  m4b: { format: 'mp4', mimeType: 'audio/mp4' },
  m4p: { format: 'mp4', mimeType: 'audio/mp4' },
  m4v: { format: 'mp4', mimeType: 'audio/mp4' },
  f4a: { format: 'mp4', mimeType: 'audio/mp4' },
  f4b: { format: 'mp4', mimeType: 'audio/mp4' },
  mp4: { format: 'mp4', mimeType: 'audio/mp4' },
  '3gp': { format: 'mp4', mimeType: 'audio/mp4' },
  '3g2': { format: 'mp4', mimeType: 'audio/mp4' },
  webm: { format: 'webm', mimeType: 'audio/webm' },
  mkv: { format: 'mkv', mimeType: 'audio/x-matroska' },
};

/**
 * file-type takes a bare MPEG/ADTS frame by its sync bits alone, so 0xFF noise would pass as MP3.
 * A real frame header also has a usable bitrate and sampling rate.
 */
function plausibleFrame(head: Buffer): boolean {
  if (head.length < 4 || head[0] !== 0xff) return true;
  const isAdts = (head[1]! & 0xf6) === 0xf0;
  if (isAdts) return ((head[2]! >> 2) & 0x0f) <= 12;
  return head[2]! >> 4 !== 0x0f && ((head[2]! >> 2) & 0x03) !== 0x03;
}

/**
 * Recognises audio by its magic bytes (file-type): WAV, MP3, M4A/MP4, AAC (ADTS), Ogg/Opus,
 * WebM/Matroska and FLAC. Anything else is null, whatever its name or declared type.
 */
export async function sniffAudio(head: Buffer): Promise<AudioType | null> {
  if (head.length === 0) return null;
  let found;
  try {
    found = await fileTypeFromBuffer(head);
  } catch {
    // A head that file-type's parsers choke on (a corrupt container) is not audio we can accept.
    return null;
  }
  const type = found ? ACCEPTED[found.ext] : undefined;
  if (!type || !plausibleFrame(head)) return null;
  return type;
}
