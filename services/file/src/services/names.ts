import createContentDisposition from 'content-disposition';

export const MAX_ORIGINAL_NAME = 255;

// Control characters, bidi overrides/isolates (they can disguise an extension) and other invisibles.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff]/g;

/**
 * The name the uploader's computer gave the file, made safe to show: no folders, no control or
 * direction-changing characters, whitespace collapsed, at most 255 characters (keeping the
 * extension). It is data only: storage uses a generated key.
 */
export function sanitiseOriginalName(raw: string | undefined): string {
  const base = (raw ?? '').normalize('NFC').split(/[\\/]/).pop() ?? '';
  const clean = base.replace(/\s+/g, ' ').replace(UNSAFE, '').replace(/ {2,}/g, ' ').trim();
  if (!clean || clean === '.' || clean === '..') return 'audio';
  const chars = [...clean];
  if (chars.length <= MAX_ORIGINAL_NAME) return clean;
  const dot = clean.lastIndexOf('.');
  const extension = dot > 0 ? [...clean.slice(dot)] : [];
  const keep = extension.length > 0 && extension.length <= 16 ? extension : [];
  return chars.slice(0, MAX_ORIGINAL_NAME - keep.length - 1).join('') + '…' + keep.join('');
}

/**
 * The Content-Disposition of played audio: an ASCII `filename` (anything else as `_`, since
 * browsers read that parameter in differing charsets) and, when that lost something, the exact
 * name as RFC 5987 UTF-8 in `filename*`.
 */
export function contentDisposition(name: string): string {
  return createContentDisposition(name, { type: 'inline', fallback: name.replace(/[^\x20-\x7e]/g, '_') });
}
