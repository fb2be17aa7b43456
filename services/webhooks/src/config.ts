import { z } from 'zod';
import { envBoolean, type BaseConfig, type StorageConfig } from '@earshot/kit';

/** Environment keys of the webhooks service. */
export const webhooksConfigShape = {
  /**
   * Endpoints on private, loopback or carrier-grade NAT addresses are refused (at save and at every
   * delivery) unless this is `true`: for receivers inside the operator's own network, and tests.
   * Link-local and cloud metadata addresses stay refused whatever it says.
   */
  WEBHOOK_ALLOW_PRIVATE_URLS: envBoolean(false),
  /** Multiplies the whole retry schedule (5 s … 10 h): tests run it in seconds with 0.01. */
  WEBHOOK_RETRY_SCALE: z.coerce.number().min(0).max(100).default(1),
  /** How often the worker looks for deliveries that are due (a new event wakes it at once). */
  WEBHOOK_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
  /** Deliveries sent at the same time by one process (each to a different endpoint). */
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(16),
  /**
   * Days a finished delivery (its body, response excerpt and attempts) stays in the delivery log;
   * older ones are removed once an hour. Pending deliveries stay until they finish.
   */
  WEBHOOK_DELIVERY_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
};

/** Storage too: a person's export part is written there. */
export type WebhooksConfig = BaseConfig & StorageConfig & z.infer<z.ZodObject<typeof webhooksConfigShape>>;
