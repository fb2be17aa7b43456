import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  BRANDING_MAX_BYTES,
  BrandingAssetParams,
  BrandingUploadDto,
  BrandingUploadQuery,
  ERROR_RESPONSES,
  ErrorBody,
  HOST_ONLY,
} from '@earshot/contracts';
import { identityOf } from '@earshot/kit';
import { brandingError, type BrandingService } from '../services/branding';

/** Room for the multipart headers around the image. */
const MULTIPART_OVERHEAD = 16 * 1024;

/**
 * Company images: the platform administrator uploads them; anyone may fetch them (the sign-in page
 * shows a company's logo before anyone signs in). Served with the type they were recognised as,
 * never sniffed by the browser, and cached for long: a new image gets a new name.
 */
export async function brandingRoutes(app: FastifyInstance, branding: BrandingService): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // In this service's scope only: other routes keep the JSON body limit.
  await app.register(multipart, { throwFileSizeLimit: false });

  r.post(
    '/companies/upload',
    {
      config: { access: HOST_ONLY },
      bodyLimit: BRANDING_MAX_BYTES + MULTIPART_OVERHEAD,
      schema: {
        tags: ['companies'],
        summary: 'Upload a company image (logo, favIcon, mainPageLogo): PNG, JPEG, WebP or ICO, checked by content',
        querystring: BrandingUploadQuery,
        response: { 201: BrandingUploadDto, 409: ErrorBody, 413: ErrorBody, 415: ErrorBody, ...ERROR_RESPONSES },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) throw brandingError.notMultipart();
      const part = await request.file({
        limits: { fileSize: BRANDING_MAX_BYTES, files: 1, fields: 0, parts: 1, headerPairs: 20 },
      });
      if (!part || part.fieldname !== 'file') throw brandingError.noFile();
      const data = await part.toBuffer();
      if (part.file.truncated) throw brandingError.tooLarge();
      const { companyId, kind } = request.query;
      return reply.code(201).send(await branding.upload(identityOf(request), { companyId, kind, data }));
    },
  );

  r.get(
    '/companies/assets/:name',
    {
      config: { access: 'public', params: { name: 'brandingAsset' } },
      schema: {
        tags: ['companies'],
        summary: 'An uploaded company image (public)',
        params: BrandingAssetParams,
        response: { 400: ErrorBody, 404: ErrorBody },
      },
      // The body is the image stream: no JSON response schema to serialise it against.
    },
    async (request: FastifyRequest<{ Params: { name: string } }>, reply: FastifyReply) => {
      const asset = await branding.asset(request.params.name);
      return reply
        .header('content-type', asset.contentType)
        .header('content-length', String(asset.size))
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(asset.body);
    },
  );
}
