import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ALL_ROLES,
  CurrencyBody,
  CurrencyDto,
  ERROR_RESPONSES,
  HOST_ONLY,
  PriceCreateBody,
  PriceDto,
  PriceHistoryDto,
  PriceHistoryQuery,
  PricingDto,
} from '@earshot/contracts';
import { identityOf } from '@earshot/kit';
import type { PricingService } from '../services/pricing';

const errors = ERROR_RESPONSES;

/**
 * Prices: set by the platform administrator (prices are what every company pays); the prices in force are read by
 * every signed-in role, since the AI configuration and the console show what a model costs.
 */
export async function pricingRoutes(app: FastifyInstance, pricing: PricingService): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/pricing',
    {
      config: { access: ALL_ROLES },
      schema: {
        tags: ['pricing'],
        summary: 'The display currency and the prices in force now',
        response: { 200: PricingDto, ...errors },
      },
    },
    async () => pricing.pricing(),
  );

  r.get(
    '/pricing/history',
    {
      config: { access: HOST_ONLY },
      schema: {
        tags: ['pricing'],
        summary: 'Every price set (future ones included), newest first; ?modelId= or ?engine= narrows',
        querystring: PriceHistoryQuery,
        response: { 200: PriceHistoryDto, ...errors },
      },
    },
    async (request) => pricing.history(request.query),
  );

  r.post(
    '/pricing',
    {
      config: { access: HOST_ONLY, example: { body: { engine: 'pocketsphinx', unit: 'audio_minute', credits: 0 } } },
      schema: {
        tags: ['pricing'],
        summary: 'Set a price of a model or engine from now (or a future date) on; charges already made keep theirs',
        body: PriceCreateBody,
        response: { 201: PriceDto, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await pricing.setPrice(identityOf(request), request.body)),
  );

  r.put(
    '/pricing/currency',
    {
      config: { access: HOST_ONLY, example: { body: { currency: 'EUR', creditRate: 0.01 } } },
      schema: {
        tags: ['pricing'],
        summary: 'The display currency and its rate (currency units per credit)',
        body: CurrencyBody,
        response: { 200: CurrencyDto, ...errors },
      },
    },
    async (request) => pricing.setCurrency(identityOf(request), request.body),
  );
}
