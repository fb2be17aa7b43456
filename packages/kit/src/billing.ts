import { z } from 'zod';
import { Actor } from '@earshot/contracts';
import { ConfigError } from './config';
import { INTERNAL_TOKEN_HEADER } from './api-keys';
import type { Database } from './db/database';

/**
 * What the tenant service asks of the billing service, which owns the credits: open a new
 * company's account (with its opening credits) while the creation answers, so the console shows
 * the balance at once; and the balances and monthly use its companies list and platform overview
 * show. In one process the billing service answers directly; between processes its internal
 * routes do (INTERNAL_API_TOKEN, like the credit check).
 */
export interface BillingPort {
  /** Opens the company's account; a second call (or the company.created fallback) changes nothing. */
  openAccount(request: OpenAccountRequest): Promise<void>;
  /** What each of these companies can still spend (absent: no account yet, 0). */
  balances(companyIds: readonly string[]): Promise<Map<string, number>>;
  /** Credits charged and seconds of audio transcribed per company and month (UTC) since `from`. */
  monthlyUse(from: Date): Promise<MonthlyUse[]>;
}

export const OpenAccountRequest = z
  .object({
    company: z.object({ id: z.string().uuid(), name: z.string(), code: z.string(), status: z.string() }).strict(),
    actor: Actor,
  })
  .strict();
export type OpenAccountRequest = z.infer<typeof OpenAccountRequest>;

export const BalancesBody = z.object({ companyIds: z.array(z.string().uuid()).max(1000) }).strict();
export const BalancesAnswer = z.object({ balances: z.record(z.string(), z.number()) });

export const MonthlyUseQuery = z.object({ from: z.iso.datetime() }).strict();
export const MonthlyUse = z.object({
  companyId: z.string(),
  month: z.string(),
  credits: z.number(),
  transcriptionSeconds: z.number(),
});
export type MonthlyUse = z.infer<typeof MonthlyUse>;
export const MonthlyUseAnswer = z.object({ items: z.array(MonthlyUse) });

/** The billing service's internal routes (on its own port, never behind the gateway). */
export const BILLING_ACCOUNTS_PATH = '/internal/billing/accounts';
export const BILLING_BALANCES_PATH = '/internal/billing/balances';
export const BILLING_MONTHLY_USE_PATH = '/internal/billing/monthly-use';

// Services of one process share one database handle: the port the tenant finds is the billing
// service of its own process, never another test stack's.
const inProcess = new WeakMap<Database, BillingPort>();

/** The billing service offers its port to the services of its own process. */
export function serveBillingInProcess(database: Database, port: BillingPort): void {
  inProcess.set(database, port);
}

/** The billing service's internal routes over HTTP; never follows a redirect, so the token stays there. */
export function remoteBilling(baseUrl: string, token: string, timeoutMs = 5000): BillingPort {
  const base = baseUrl.replace(/\/+$/, '');
  const call = async (path: string, init: { method: 'GET' | 'POST'; body?: unknown }) => {
    const response = await fetch(`${base}${path}`, {
      method: init.method,
      headers: {
        [INTERNAL_TOKEN_HEADER]: token,
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) {
      await response.body?.cancel();
      throw new Error(`The billing service did not answer ${path} (${response.status})`);
    }
    return response;
  };
  return {
    async openAccount(request) {
      const response = await call(BILLING_ACCOUNTS_PATH, { method: 'POST', body: OpenAccountRequest.parse(request) });
      await response.body?.cancel();
    },
    async balances(companyIds) {
      if (companyIds.length === 0) return new Map();
      const response = await call(BILLING_BALANCES_PATH, { method: 'POST', body: { companyIds } });
      return new Map(Object.entries(BalancesAnswer.parse(await response.json()).balances));
    },
    async monthlyUse(from) {
      const query = new URLSearchParams({ from: from.toISOString() });
      const response = await call(`${BILLING_MONTHLY_USE_PATH}?${query}`, { method: 'GET' });
      return MonthlyUseAnswer.parse(await response.json()).items;
    },
  };
}

/** Environment keys of the tenant service for reaching the billing service in another process. */
export interface BillingConfig {
  BILLING_SERVICE_URL?: string;
  INTERNAL_API_TOKEN?: string;
}

/** The problems that keep a process from reaching the billing service in another process (none: it can). */
export function remoteBillingProblems(config: BillingConfig): string[] {
  return [
    config.BILLING_SERVICE_URL
      ? null
      : 'BILLING_SERVICE_URL: required when the billing service runs in another process',
    config.INTERNAL_API_TOKEN ? null : 'INTERNAL_API_TOKEN: required when the billing service runs in another process',
  ].filter((problem): problem is string => problem !== null);
}

/**
 * A process without billing (a test stack of the tenant service alone): no account to open, no
 * balance, no use. A deployment never runs so: the tenant service on its own refuses to start
 * without BILLING_SERVICE_URL (see its internal routes).
 */
const NO_BILLING: BillingPort = {
  async openAccount() {},
  async balances() {
    return new Map();
  },
  async monthlyUse() {
    return [];
  },
};

/**
 * The billing port a service keeps for its whole life: the billing service of its own process when
 * one is mounted (looked up at each call, so one mounted after this service is found), else its
 * internal routes when BILLING_SERVICE_URL is set, else none.
 */
export function processBilling(database: Database, config: BillingConfig): BillingPort {
  let remote: BillingPort | undefined;
  const port = (): BillingPort => {
    const local = inProcess.get(database);
    if (local) return local;
    if (remoteBillingProblems(config).length) return NO_BILLING;
    return (remote ??= remoteBilling(config.BILLING_SERVICE_URL!, config.INTERNAL_API_TOKEN!));
  };
  return {
    openAccount: (request) => port().openAccount(request),
    balances: (companyIds) => port().balances(companyIds),
    monthlyUse: (from) => port().monthlyUse(from),
  };
}

/** Throws ConfigError (at start) when the billing service in another process cannot be reached. */
export function assertRemoteBilling(config: BillingConfig): void {
  const problems = remoteBillingProblems(config);
  if (problems.length) throw new ConfigError(problems);
}
