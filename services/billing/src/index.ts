import {
  ConfigError,
  ContextTimers,
  defineService,
  on,
  onCompanyDeleted,
  serveBillingInProcess,
  serveCreditGateInProcess,
  type ServiceContext,
} from '@earshot/kit';
import { migrations } from './db/migrations';
import { billingMetrics } from './metrics';
import { removeCompanyCredits } from './repositories/credits';
import { removeCompany } from './repositories/directory';
import { creditRoutes } from './routes/credits';
import { internalRoutes } from './routes/internal';
import { pricingRoutes } from './routes/pricing';
import { usageRoutes } from './routes/usage';
import { AccountService } from './services/accounts';
import { creditsConfigShape, type CreditsConfig } from './services/credits/config';
import { CreditService } from './services/credits/credits';
import { CreditGateService } from './services/credits/gate';
import { meteringHandlers } from './services/credits/metering';
import { applyCompanyEvent, applyUserEvent } from './services/directory';
import { PricingService } from './services/pricing';
import { StatementService } from './services/statement';
import { UsageService } from './services/usage';

type BillingConfig = ServiceContext['config'] & CreditsConfig;
type BillingContext = ServiceContext<BillingConfig>;

/** One credit service per mounted context (routes, metering handlers and the monthly grant timer). */
const creditServices = new WeakMap<BillingContext, CreditService>();
function creditsOf(ctx: BillingContext): CreditService {
  let credits = creditServices.get(ctx);
  if (!credits) creditServices.set(ctx, (credits = new CreditService(ctx)));
  return credits;
}

/** How often the monthly grants are looked at: the 1st's grant lands within this after midnight UTC. */
const MONTHLY_GRANT_POLL_MS = 15 * 60 * 1000;
const timers = new ContextTimers();

/**
 * The billing service: pricing, each company's credits and ledger, budgets, caps and their alerts,
 * the metering of every AI use, the credit gate, usage reports and monthly statements. See README.md.
 */
export const billingService = defineService<BillingConfig>({
  name: 'billing',
  schema: 'billing',
  // A company's credits, usage and statements sit under the tenant's /companies/:id: the gateway
  // routes these sub-paths here, the rest of /companies to the tenant.
  prefixes: [
    '/pricing',
    '/credits',
    '/companies/:id/credits',
    '/companies/:id/usage',
    '/companies/:id/usage.csv',
    '/companies/:id/statement',
    '/companies/:id/statement.pdf',
  ],
  migrations,
  configShape: { ...creditsConfigShape },
  async routes(app, ctx) {
    // The services of this process ask billing directly whether AI work may start, and the tenant
    // opens accounts and reads balances directly. Offered while mounting, so they are there for
    // every service's routes and start alike.
    serveCreditGateInProcess(ctx.database, new CreditGateService(ctx));
    serveBillingInProcess(ctx.database, new AccountService(ctx));
    await pricingRoutes(app, new PricingService(ctx));
    await creditRoutes(app, creditsOf(ctx));
    await usageRoutes(app, new UsageService(ctx), new StatementService(ctx));
  },
  async internalRoutes(app, ctx) {
    const token = ctx.config.INTERNAL_API_TOKEN;
    if (!token)
      throw new ConfigError([
        'INTERNAL_API_TOKEN: required when the billing service runs on its own (the other services ask it for credits with it)',
      ]);
    await internalRoutes(app, new CreditGateService(ctx), new AccountService(ctx), token);
  },
  // Per company and per person, the newest event wins: a late update cannot bring back one deleted after it.
  subscriptions: (ctx) => [
    on('company.created', (event, tx, emit) => new AccountService(ctx).applyCreated(tx, emit, event), {
      entity: (event) => event.data.id,
    }),
    on('company.updated', (event, tx) => applyCompanyEvent(tx, event), { entity: (event) => event.data.id }),
    onCompanyDeleted('billing', async (tx, companyId) => {
      await removeCompanyCredits(tx, companyId);
      await removeCompany(tx, companyId);
    }),
    ...(['user.created', 'user.updated', 'user.deleted'] as const).map((type) =>
      on(type, (event, tx) => applyUserEvent(tx, event), { entity: (event) => event.data.id }),
    ),
    // Every AI use is charged from its event; model names for prices and charges.
    ...meteringHandlers(creditsOf(ctx)),
    ...(['ai_model.created', 'ai_model.updated'] as const).map((type) =>
      on(type, (event, tx, emit) => new PricingService(ctx).applyModelEvent(tx, event, emit)),
    ),
  ],
  metrics: billingMetrics,
  async start(ctx) {
    const grant = () =>
      creditsOf(ctx)
        .applyMonthlyGrants()
        .catch((error: unknown) => ctx.logger.error({ err: error }, 'monthly credit grants failed'));
    await grant();
    timers.every(ctx, MONTHLY_GRANT_POLL_MS, () => void grant());
  },
  async stop(ctx) {
    timers.stop(ctx);
    creditServices.delete(ctx);
  },
});
