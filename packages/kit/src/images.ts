import { ERROR_CODES } from '@earshot/contracts';
import { HttpError } from './errors';

/** What file-type recognises that we accept, and the name ending we give it. */
const ACCEPTED: Record<string, AcceptedImage> = {
  png: { ext: 'png', mimeType: 'image/png' },
  jpg: { ext: 'jpg', mimeType: 'image/jpeg' },
  webp: { ext: 'webp', mimeType: 'image/webp' },
  ico: { ext: 'ico', mimeType: 'image/x-icon' },
};

export interface AcceptedImage {
  ext: string;
  mimeType: string;
}

export const IMAGE_MESSAGES = {
  unsupported: 'Invalid file: the image must be a PNG, JPEG, WebP or ICO file',
  svg: 'Invalid file: SVG images are not accepted (they can carry script); upload a PNG, JPEG, WebP or ICO image',
  tooLarge: (maxBytes: number) => `Invalid file: the image must be at most ${maxBytes / (1024 * 1024)} MB`,
  noFile: 'Invalid file: send the image in the multipart field "file"',
} as const;

const fileError = (status: 400 | 413 | 415, message: string) =>
  new HttpError(
    status,
    message,
    status === 415 ? ERROR_CODES.UNSUPPORTED : status === 413 ? ERROR_CODES.TOO_LARGE : ERROR_CODES.VALIDATION,
    [{ field: 'file', message }],
  );

/** The errors of an image upload, each naming the multipart field `file`. */
export const imageError = {
  noFile: () => fileError(400, IMAGE_MESSAGES.noFile),
  tooLarge: (maxBytes: number) => fileError(413, IMAGE_MESSAGES.tooLarge(maxBytes)),
  notMultipart: () => fileError(415, IMAGE_MESSAGES.noFile),
};

/** SVG is text: file-type does not name it, so look for its root element in the first bytes. */
function looksLikeSvg(data: Buffer): boolean {
  const head = data
    .subarray(0, 4096)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase();
  return head.startsWith('<') && head.includes('<svg');
}

/**
 * An uploaded image (company branding, a person's picture), judged by its bytes, never by the name
 * or type the browser gave it: a PNG, JPEG, WebP or ICO of at most `maxBytes`. SVG is refused, as
 * it can carry script.
 */
export async function acceptImage(data: Buffer, maxBytes: number): Promise<AcceptedImage> {
  if (data.length === 0) throw imageError.noFile();
  if (data.length > maxBytes) throw imageError.tooLarge(maxBytes);
  if (looksLikeSvg(data)) throw fileError(415, IMAGE_MESSAGES.svg);
  // Imported on the first upload: every service loads this module, few take images (2.5 MB of heap).
  const { fileTypeFromBuffer } = await import('file-type');
  const type = ACCEPTED[(await fileTypeFromBuffer(data))?.ext ?? ''];
  if (!type) throw fileError(415, IMAGE_MESSAGES.unsupported);
  return type;
}
