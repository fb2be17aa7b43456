/** What the first bytes of an upload say it is. */
export interface AudioType {
  format: 'wav' | 'mp3' | 'mp4' | 'aac' | 'ogg' | 'webm' | 'mkv' | 'flac';
  mimeType: string;
}

/** Enough bytes to recognise every accepted format (and the WebM doctype, which may sit a little further). */
export const SNIFF_BYTES = 64;

/** ISO base media brands of audio (and audio-capable MP4) files; image brands such as heic/avif are not here. */
const MP4_BRANDS = new Set([
  'M4A ', 'M4B ', 'M4P ', 'M4V ', 'F4A ', 'F4B ', 'mp41', 'mp42', 'mp71', 'isom', 'iso2', 'iso3', 'iso4', 'iso5', 'iso6',
  'dash', 'avc1', '3gp4', '3gp5', '3gp6', '3g2a', '3g2b', '3g2c', 'MSNV', 'NDAS', 'caqv',
]);

const ascii = (head: Buffer, offset: number, length: number) =>
  head.length >= offset + length ? head.toString('latin1', offset, offset + length) : '';

/** An MPEG audio frame header (layer I/II/III): sync, and no reserved version, layer, bitrate or rate. */
function isMpegFrame(head: Buffer): boolean {
  if (head.length < 4 || head[0] !== 0xff || (head[1]! & 0xe0) !== 0xe0) return false;
  const version = (head[1]! >> 3) & 0x03;
  const layer = (head[1]! >> 1) & 0x03;
  const bitrate = head[2]! >> 4;
  const rate = (head[2]! >> 2) & 0x03;
  return version !== 0x01 && layer !== 0x00 && bitrate !== 0x0f && rate !== 0x03;
}

/** An ADTS (raw AAC) header: 12-bit sync, layer 00, a valid sampling-frequency index. */
function isAdts(head: Buffer): boolean {
  if (head.length < 4 || head[0] !== 0xff || (head[1]! & 0xf6) !== 0xf0) return false;
  const frequency = (head[2]! >> 2) & 0x0f;
  return frequency <= 12;
}

/**
 * Recognises audio by its magic bytes: WAV (RIFF/RF64 .... WAVE), MP3 (ID3 tag or an MPEG frame),
 * MP4/M4A (an ftyp box with an audio-capable brand), AAC (ADTS), Ogg/Opus (OggS), WebM/Matroska
 * (EBML) and FLAC (fLaC). Anything else is null, whatever its name or declared type.
 */
export function sniffAudio(head: Buffer): AudioType | null {
  const riff = ascii(head, 0, 4);
  if ((riff === 'RIFF' || riff === 'RF64') && ascii(head, 8, 4) === 'WAVE') return { format: 'wav', mimeType: 'audio/wav' };
  if (ascii(head, 0, 4) === 'fLaC') return { format: 'flac', mimeType: 'audio/flac' };
  if (ascii(head, 0, 4) === 'OggS') return { format: 'ogg', mimeType: 'audio/ogg' };
  if (head.length >= 4 && head.readUInt32BE(0) === 0x1a45dfa3) {
    return head.includes('webm', 4, 'latin1') ? { format: 'webm', mimeType: 'audio/webm' } : { format: 'mkv', mimeType: 'audio/x-matroska' };
  }
  if (ascii(head, 4, 4) === 'ftyp' && head.length >= 12 && head.readUInt32BE(0) >= 12 && MP4_BRANDS.has(ascii(head, 8, 4))) {
    return { format: 'mp4', mimeType: 'audio/mp4' };
  }
  if (ascii(head, 0, 3) === 'ID3' && head.length >= 10 && head[3]! < 0xff && head[4]! < 0xff) return { format: 'mp3', mimeType: 'audio/mpeg' };
  if (isAdts(head)) return { format: 'aac', mimeType: 'audio/aac' };
  if (isMpegFrame(head)) return { format: 'mp3', mimeType: 'audio/mpeg' };
  return null;
}
