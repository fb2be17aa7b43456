import { z } from 'zod';
import {
  CREDIT_CODES,
  CREDIT_FEATURES,
  CREDIT_MESSAGES,
  SERVICE_ROLE,
  type CreditCode,
  type CreditFeature,
} from '@earshot/contracts';
import { ConfigError } from './config';
import { HttpError } from './errors';
import { INTERNAL_TOKEN_HEADER } from './api-keys';
import { remoteBillingProblems } from './billing';
import type { Database } from './db/database';
import type { Identity } from './auth';

/**
 * What a service asks before it starts AI work (a chat reply, an analysis run, a transcription,
 * a custom GPT answer, an embedding): may this company, and this person, spend now? The billing
 * service owns the credits and answers; the work itself is charged afterwards from its event.
 */
export const SpendRequest = z
  .object({
    companyId: z.string().min(1),
    /** The person the work is for; null for a company's API key or a background job of the company. */
    userId: z.string().min(1).nullable(),
    feature: z.enum(CREDIT_FEATURES),
    /** The AI configuration model (its `_id`) that will be used; omitted for engines and the built-in assistant. */
    modelId: z.string().min(1).nullable().optional(),
    /** The speech engine (`pocketsphinx`, `openai`) when no configured model names the price. */
    engine: z.string().min(1).nullable().optional(),
  })
  .strict();
export type SpendRequest = z.infer<typeof SpendRequest>;

/** The billing service's refusal: 402 for exhausted credits or cap, 409 for a model with no price. */
export const SpendRefusal = z.object({
  code: z.enum([CREDIT_CODES.CREDITS_EXHAUSTED, CREDIT_CODES.USER_CAP_REACHED, CREDIT_CODES.MODEL_NOT_PRICED]),
});

export interface CreditGate {
  /**
   * Resolves when the work may start. Throws the HttpError the caller answers with when not:
   * 402 CREDITS_EXHAUSTED (the company's balance is ≤ 0), 402 USER_CAP_REACHED (the person's
   * remaining monthly cap is ≤ 0), 409 MODEL_NOT_PRICED (the model or engine has no price in force).
   */
  assertCanSpend(request: SpendRequest): Promise<void>;
}

/** The HttpError of a refusal code, with the console's message. */
export function creditRefusal(code: CreditCode): HttpError {
  return new HttpError(code === CREDIT_CODES.MODEL_NOT_PRICED ? 409 : 402, CREDIT_MESSAGES[code], code);
}

/** The internal route's path (on the billing service's own port, never behind the gateway). */
export const CREDIT_CHECK_PATH = '/internal/credits/check';

/** Environment keys of the services that ask the billing service whether work may start. */
export interface CreditGateConfig {
  BILLING_SERVICE_URL?: string;
  INTERNAL_API_TOKEN?: string;
}

// Services of one process share one database handle: the gate a consumer finds is the billing
// service of its own process, never another test stack's.
const inProcess = new WeakMap<Database, CreditGate>();

/** The billing service offers its gate to the services of its own process. */
export function serveCreditGateInProcess(database: Database, gate: CreditGate): void {
  inProcess.set(database, gate);
}

/** Asks the billing service's internal route (204: go; 402/409 with a code: refused). */
export function remoteCreditGate(baseUrl: string, token: string, timeoutMs = 5000): CreditGate {
  const url = `${baseUrl.replace(/\/+$/, '')}${CREDIT_CHECK_PATH}`;
  return {
    async assertCanSpend(request) {
      const response = await fetch(url, {
        method: 'POST',
        headers: { [INTERNAL_TOKEN_HEADER]: token, 'content-type': 'application/json' },
        body: JSON.stringify(SpendRequest.parse(request)),
        redirect: 'error',
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (response.status === 204) return;
      if (response.status === 402 || response.status === 409) {
        throw creditRefusal(SpendRefusal.parse(await response.json()).code);
      }
      await response.body?.cancel();
      throw new Error(`The billing service did not answer a credit check (${response.status})`);
    },
  };
}

/**
 * The gate of a service's process: the billing service in the same process when there is one,
 * else its internal route. Throws ConfigError (at start) when neither is possible.
 */
export function creditGateFor(database: Database, config: CreditGateConfig): CreditGate {
  const local = inProcess.get(database);
  if (local) return local;
  const missing = remoteBillingProblems(config);
  if (missing.length) throw new ConfigError(missing);
  return remoteCreditGate(config.BILLING_SERVICE_URL!, config.INTERNAL_API_TOKEN!);
}

export type { CreditFeature };

/**
 * The gate a service keeps for its whole life: it finds the process's gate (creditGateFor) at each
 * check, so a billing service mounted (or a gate served) after this service started is the one
 * asked. Pair it with `creditGateFor` at start in distributed mode, where a missing setting must
 * stop the process before traffic rather than fail the first AI request.
 */
export function processCreditGate(database: Database, config: CreditGateConfig): CreditGate {
  let remote: { gate: CreditGate } | undefined;
  return {
    assertCanSpend(request) {
      const local = inProcess.get(database);
      if (local) return local.assertCanSpend(request);
      // One remote client for the service's life: the settings do not change while it runs.
      remote ??= { gate: creditGateFor(database, config) };
      return remote.gate.assertCanSpend(request);
    },
  };
}

/** Who spends for a caller: the person, or nobody in particular for the company's API key. */
export function spenderOf(identity: Pick<Identity, 'userId' | 'role'>): string | null {
  return identity.role === SERVICE_ROLE ? null : identity.userId;
}
