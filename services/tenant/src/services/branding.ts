import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { fileTypeFromBuffer } from 'file-type';
import { BRANDING_MAX_BYTES, BRANDING_URL_PREFIX, ERROR_CODES, type BrandingKind, type BrandingUploadDto } from '@earshot/contracts';
import { actorOf, HttpError, notFound, ObjectNotFoundError, type Identity, type ObjectStorage, type ServiceContext } from '@earshot/kit';
import type { CompanyRow } from '../db/schema';
import * as repo from '../repositories/companies';
import { assertNotDeleting, assertVisible, loadCompany, toCompanyState } from './companies';

/** What file-type recognises that we accept, and the name ending we give it. */
const ACCEPTED: Record<string, { ext: string; mimeType: string }> = {
  png: { ext: 'png', mimeType: 'image/png' },
  jpg: { ext: 'jpg', mimeType: 'image/jpeg' },
  webp: { ext: 'webp', mimeType: 'image/webp' },
  ico: { ext: 'ico', mimeType: 'image/x-icon' },
};

export const BRANDING_MESSAGES = {
  unsupported: 'Invalid file: the image must be a PNG, JPEG, WebP or ICO file',
  svg: 'Invalid file: SVG images are not accepted (they can carry script); upload a PNG, JPEG, WebP or ICO image',
  tooLarge: `Invalid file: the image must be at most ${BRANDING_MAX_BYTES / (1024 * 1024)} MB`,
  noFile: 'Invalid file: send the image in the multipart field "file"',
} as const;

const fileError = (status: 400 | 413 | 415, message: string) =>
  new HttpError(status, message, status === 415 ? ERROR_CODES.UNSUPPORTED : status === 413 ? ERROR_CODES.TOO_LARGE : ERROR_CODES.VALIDATION, [{ field: 'file', message }]);

export const brandingError = {
  noFile: () => fileError(400, BRANDING_MESSAGES.noFile),
  tooLarge: () => fileError(413, BRANDING_MESSAGES.tooLarge),
  notMultipart: () => fileError(415, BRANDING_MESSAGES.noFile),
};

/** SVG is text: file-type does not name it, so look for its root element in the first bytes. */
function looksLikeSvg(data: Buffer): boolean {
  const head = data.subarray(0, 4096).toString('utf8').replace(/^\uFEFF/, '').trimStart().toLowerCase();
  return head.startsWith('<') && head.includes('<svg');
}

const keyOf = (name: string) => `branding/${name}`;

/** The stored object behind a branding URL of ours; null for anything else (https URLs, data URLs). */
export function brandingKey(url: string | null): string | null {
  return url?.startsWith(BRANDING_URL_PREFIX) ? keyOf(url.slice(BRANDING_URL_PREFIX.length)) : null;
}

/** Every uploaded image a company row points at. */
export function brandingKeysOf(row: CompanyRow): string[] {
  return [row.logo, row.favIcon, row.mainPageLogo].map(brandingKey).filter((key): key is string => key !== null);
}

export interface BrandingAsset {
  contentType: string;
  size: number;
  body: Readable;
}

/**
 * Company images (logo, favicon, main-page logo): recognised by content, stored through the kit's
 * storage under a name the server makes up, served publicly (the sign-in page shows them before
 * anyone signs in). Replacing an image removes the old one.
 */
export class BrandingService {
  constructor(private readonly ctx: ServiceContext, private readonly storage: ObjectStorage) {}

  async upload(identity: Identity, input: { companyId: string; kind: BrandingKind; data: Buffer }): Promise<BrandingUploadDto> {
    const { companyId, kind, data } = input;
    assertVisible(identity, companyId);
    assertNotDeleting(await loadCompany(this.ctx.db, companyId));
    if (data.length === 0) throw brandingError.noFile();
    if (data.length > BRANDING_MAX_BYTES) throw brandingError.tooLarge();
    if (looksLikeSvg(data)) throw fileError(415, BRANDING_MESSAGES.svg);
    const type = ACCEPTED[(await fileTypeFromBuffer(data))?.ext ?? ''];
    if (!type) throw fileError(415, BRANDING_MESSAGES.unsupported);

    const name = `${randomUUID()}.${type.ext}`;
    const url = `${BRANDING_URL_PREFIX}${name}`;
    await this.storage.put(keyOf(name), Readable.from(data), { contentType: type.mimeType, size: data.length });
    let previous: string | null;
    try {
      previous = await this.ctx.transact(async (tx, emit) => {
        const before = await repo.findCompanyForUpdate(tx, companyId);
        if (!before) throw notFound('Company');
        assertNotDeleting(before);
        const after = await repo.updateCompany(tx, companyId, { [kind]: url });
        emit({ type: 'company.updated', companyId, actor: actorOf(identity), data: { id: companyId, before: toCompanyState(before), after: toCompanyState(after) } });
        return before[kind];
      });
    } catch (error) {
      await this.storage.delete(keyOf(name));
      throw error;
    }
    const old = brandingKey(previous);
    if (old) await this.storage.delete(old);
    return { url };
  }

  /** An uploaded image by its name (already checked against BRANDING_ASSET_NAME), or 404. */
  async asset(name: string): Promise<BrandingAsset> {
    const info = await this.storage.stat(keyOf(name));
    if (!info) throw notFound('Image');
    try {
      return { contentType: info.contentType, size: info.size, body: await this.storage.get(keyOf(name)) };
    } catch (error) {
      // Replaced between the two calls: gone, like any unknown name.
      if (error instanceof ObjectNotFoundError) throw notFound('Image');
      throw error;
    }
  }
}
