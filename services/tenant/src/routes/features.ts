import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ADMINS,
  ALL_ROLES,
  CompanyFeatureDto,
  CompanyFeaturesBody,
  EnabledFeaturesDto,
  ErrorBody,
  ERROR_RESPONSES,
  FeatureDto,
  FeatureKeyParams,
  HOST_ONLY,
  IdParams,
  PlatformFeatureBody,
} from '@earshot/contracts';
import { identityOf } from '@earshot/kit';
import type { FeatureService } from '../services/features';

const errors = ERROR_RESPONSES;

/**
 * The features catalogue and each company's switches: platform administrators only (they are the platform's, not a company's),
 * except, on purpose, a company administrator's read-only view of their own company's switches and
 * every member's view of what is on for their company (the menu hides what is off).
 */
export async function featureRoutes(app: FastifyInstance, features: FeatureService): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/features',
    {
      config: { access: HOST_ONLY },
      schema: {
        tags: ['features'],
        summary: 'The features catalogue, with each feature’s platform-wide switch',
        response: { 200: z.array(FeatureDto), ...errors },
      },
    },
    async () => features.catalogue(),
  );

  r.get(
    '/features/enabled',
    {
      config: { access: ALL_ROLES },
      schema: {
        tags: ['features'],
        summary: 'Which features are on for the caller’s company',
        response: { 200: EnabledFeaturesDto, ...errors },
      },
    },
    async (request) => features.enabledFor(identityOf(request)),
  );

  r.put(
    '/features/:key',
    {
      config: { access: HOST_ONLY, params: { key: 'featureKey' }, example: { body: { enabled: true } } },
      schema: {
        tags: ['features'],
        summary: 'Switch a feature on or off for the whole platform (off: no company has it)',
        params: FeatureKeyParams,
        body: PlatformFeatureBody,
        response: { 200: FeatureDto, ...errors },
      },
    },
    async (request) => features.setPlatform(identityOf(request), request.params.key, request.body.enabled),
  );

  r.get(
    '/companies/:id/features',
    {
      config: { access: ADMINS, params: { id: 'company' } },
      schema: {
        tags: ['features'],
        summary: 'Which features a company has (a company administrator: their own, read-only)',
        params: IdParams,
        response: { 200: z.array(CompanyFeatureDto), ...errors },
      },
    },
    async (request) => features.forCompany(identityOf(request), request.params.id),
  );

  r.put(
    '/companies/:id/features',
    {
      config: {
        access: HOST_ONLY,
        params: { id: 'company' },
        example: { body: { features: { transcription: true } } },
      },
      schema: {
        tags: ['features'],
        summary: 'Switch features on or off for a company (keys left out keep their value)',
        params: IdParams,
        body: CompanyFeaturesBody,
        response: { 200: z.array(CompanyFeatureDto), 409: ErrorBody, ...errors },
      },
    },
    async (request) => features.set(identityOf(request), request.params.id, request.body),
  );
}
