import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { BRANDING_MAX_BYTES, BRANDING_URL_PREFIX, type BrandingKind, type BrandingUploadDto } from '@earshot/contracts';
import {
  acceptImage,
  actorOf,
  imageError,
  notFound,
  ObjectNotFoundError,
  type Identity,
  type ObjectStorage,
  type ServiceContext,
} from '@earshot/kit';
import type { CompanyRow } from '../db/schema';
import * as repo from '../repositories/companies';
import { toCompanyState } from './companies';
import { assertNotDeleting, assertVisible, loadCompany } from './company-guards';

export const brandingError = {
  noFile: imageError.noFile,
  tooLarge: () => imageError.tooLarge(BRANDING_MAX_BYTES),
  notMultipart: imageError.notMultipart,
};

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
  constructor(
    private readonly ctx: ServiceContext,
    private readonly storage: ObjectStorage,
  ) {}

  async upload(
    identity: Identity,
    input: { companyId: string; kind: BrandingKind; data: Buffer },
  ): Promise<BrandingUploadDto> {
    const { companyId, kind, data } = input;
    assertVisible(identity, companyId);
    assertNotDeleting(await loadCompany(this.ctx.db, companyId));
    const type = await acceptImage(data, BRANDING_MAX_BYTES);

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
        emit({
          type: 'company.updated',
          companyId,
          actor: actorOf(identity),
          data: { id: companyId, before: toCompanyState(before), after: toCompanyState(after) },
        });
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
