import { z } from 'zod';
import { SERVICE_ROUTES } from '@earshot/contracts';
import { envBoolean } from '@earshot/kit';

/** Keys the gateway reads on top of the base config and every service's own. */
export const gatewayConfigShape = {
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(100 * 1024 * 1024)
    .default(1024 * 1024),
  RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(1200),
  RATE_LIMIT_WINDOW_MS: z.coerce.number().int().min(1000).default(60_000),
  SIGN_IN_RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(30),
  /** Requests per RATE_LIMIT_WINDOW_MS for one company API key (X-API-Key). */
  API_KEY_RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(600),
  /**
   * Requests per RATE_LIMIT_WINDOW_MS for one company (its people's sessions and its API key
   * together); unset: five times RATE_LIMIT_MAX.
   */
  COMPANY_RATE_LIMIT_MAX: z.coerce.number().int().min(1).optional(),
  /**
   * Requests per RATE_LIMIT_WINDOW_MS for one signed-in person, from any address; unset:
   * RATE_LIMIT_MAX. A person's session is counted here and in its company's bucket, not in the
   * address's (see docs/security.md, "Rate limits").
   */
  USER_RATE_LIMIT_MAX: z.coerce.number().int().min(1).optional(),
  WEB_DIST: z.string().optional(),
  SEED_DEMO: envBoolean(true),
  DEMO_PASSWORD: z.string().min(8, 'must be at least 8 characters').max(200).optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .optional(),
  REDIS_KEY_PREFIX: z.string().min(1).max(100).default('earshot:rate-limit:'),
};

/** Where each service listens in distributed mode (the gateway proxies /api/<prefix> there). */
export const serviceUrlShape = Object.fromEntries(
  SERVICE_ROUTES.map((service) => [service.urlEnv, z.string().url().default(`http://${service.name}:3000`)]),
) as Record<`${string}_SERVICE_URL`, z.ZodDefault<z.ZodString>>;
