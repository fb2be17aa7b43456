import {
  ConfigError,
  ContextTimers,
  createStorage,
  defineService,
  encryptionConfigShape,
  on,
  serveCreditGateInProcess,
  storageConfigShape,
  type EncryptionConfig,
  type ServiceContext,
  type StorageConfig,
} from '@earshot/kit';
import { migrations } from './db/migrations';
import { policyMigrations } from './db/policies';
import { holdMigrations } from './db/holds';
import { saasMigrations } from './db/saas';
import { encryptionProgressMigrations } from './db/encryption-progress';
import { encryptionProgressRoutes } from './routes/encryption-progress';
import { applyEncryptionProgressed, EncryptionProgressService } from './services/encryption-progress';
import { holdRoutes } from './routes/holds';
import { HoldService } from './services/holds';
import { applyRecordingEvent, ClientService, RECORDING_EVENTS } from './services/clients';
import { BrandingService } from './services/branding';
import { companyRemovalHandlers } from './services/company-removal';
import { CompanyService } from './services/companies';
import { FeatureService } from './services/features';
import { applyFileEvent } from './services/figures';
import { applyUserEvent } from './services/members';
import { brandingRoutes } from './routes/branding';
import { clientRoutes } from './routes/clients';
import { companyRoutes } from './routes/companies';
import { policyRoutes } from './routes/policies';
import { PolicyService } from './services/policies';
import { configRoutes } from './routes/config';
import { internalRoutes } from './routes/internal';
import { featureRoutes } from './routes/features';
import { usageRoutes } from './routes/usage';
import { StatementService } from './services/statement';
import { UsageService } from './services/usage';
import { creditsConfigShape, type CreditsConfig } from './services/credits/config';
import { CreditService } from './services/credits/credits';
import { CreditGateService } from './services/credits/gate';
import { meteringHandlers } from './services/credits/metering';
import { PricingService } from './services/pricing';
import { creditRoutes } from './routes/credits';
import { pricingRoutes } from './routes/pricing';
import { tenantErasePart, tenantExportPart } from './services/privacy';
import { saasRoutes } from './routes/saas';
import { applySignedIn, SaasService } from './services/saas';

type TenantConfig = ServiceContext['config'] & StorageConfig & CreditsConfig & EncryptionConfig;
type TenantContext = ServiceContext<TenantConfig>;

/** One credit service per mounted context (routes, metering handlers and the monthly grant timer). */
const creditServices = new WeakMap<TenantContext, CreditService>();
function creditsOf(ctx: TenantContext): CreditService {
  let credits = creditServices.get(ctx);
  if (!credits) creditServices.set(ctx, (credits = new CreditService(ctx)));
  return credits;
}

/** How often the monthly grants are looked at: the 1st's grant lands within this after midnight UTC. */
const MONTHLY_GRANT_POLL_MS = 15 * 60 * 1000;
const timers = new ContextTimers();

/** The tenant service: companies, their branding, API keys, policies and feature switches; clients; pricing and credits. See README.md. */
export const tenantService = defineService<TenantConfig>({
  name: 'tenant',
  schema: 'tenant',
  prefixes: ['/companies', '/config', '/features', '/clients', '/pricing', '/credits', '/dashboards/saas'],
  // The policies' migration has its own module; names order them among the others.
  migrations: [
    ...migrations,
    ...policyMigrations,
    ...holdMigrations,
    ...saasMigrations,
    ...encryptionProgressMigrations,
  ],
  // Company images are stored like audio (local disk or S3, the same settings as the file service).
  // The master key only tells whether encryption at rest can be turned on: the tenant keeps no data
  // keys, but refuses a switch the services that encrypt could not honour (they share the variable).
  configShape: { ...storageConfigShape, ...creditsConfigShape, ...encryptionConfigShape },
  async routes(app, ctx) {
    const companies = new CompanyService(ctx);
    // The hashes live here: this process's verifier (all-in-one: the gateway's too) asks directly.
    ctx.tokens.apiKeys.serveLocally(companies.apiKeys);
    // The services of this process ask the tenant service directly whether AI work may start. Offered
    // while mounting (the tenant is mounted before the services that ask), so it is there for their
    // routes and start alike.
    serveCreditGateInProcess(ctx.database, new CreditGateService(ctx));
    await companyRoutes(app, companies);
    await policyRoutes(app, new PolicyService(ctx));
    await holdRoutes(app, new HoldService(ctx));
    await encryptionProgressRoutes(app, new EncryptionProgressService(ctx));
    await brandingRoutes(app, new BrandingService(ctx, createStorage(ctx.config)));
    await configRoutes(app, companies);
    await featureRoutes(app, new FeatureService(ctx));
    await clientRoutes(app, new ClientService(ctx));
    await pricingRoutes(app, new PricingService(ctx));
    await creditRoutes(app, creditsOf(ctx));
    await usageRoutes(app, new UsageService(ctx), new StatementService(ctx));
    await saasRoutes(app, new SaasService(ctx));
  },
  async internalRoutes(app, ctx) {
    const token = ctx.config.INTERNAL_API_TOKEN;
    if (!token)
      throw new ConfigError([
        'INTERNAL_API_TOKEN: required when the tenant service runs on its own (the gateway and the other services check company API keys with it)',
      ]);
    await internalRoutes(app, new CompanyService(ctx).apiKeys, new CreditGateService(ctx), token);
  },
  // Per user, the newest event wins: a late user.updated cannot re-add a user deleted after it.
  subscriptions: (ctx) => [
    ...(['user.created', 'user.updated', 'user.deleted'] as const).map((type) =>
      on(type, (event, tx) => applyUserEvent(tx, event), { entity: (event) => event.data.id }),
    ),
    // Recordings of the company, for a client's profile: each event sets only the facts it carries.
    ...RECORDING_EVENTS.map((type) => on(type, (event, tx) => applyRecordingEvent(tx, event))),
    // Each company's stored bytes, for the companies list.
    on('file.uploaded', (event, tx) => applyFileEvent(tx, event)),
    on('file.deleted', (event, tx) => applyFileEvent(tx, event)),
    ...companyRemovalHandlers(createStorage(ctx.config)),
    // A person's data (data-protection requests): a client contact and their calls, exported or erased.
    tenantExportPart(createStorage(ctx.config)),
    tenantErasePart,
    // Credits: every AI use is charged from its event; model names for prices and charges.
    ...meteringHandlers(creditsOf(ctx)),
    ...(['ai_model.created', 'ai_model.updated'] as const).map((type) =>
      on(type, (event, tx, emit) => new PricingService(ctx).applyModelEvent(tx, event, emit)),
    ),
    // Last sign-ins, for the platform overview's active users.
    on('user.signed_in', (event, tx) => applySignedIn(tx, event)),
    // Each service's background encryption of a company's existing data, for the console.
    on('company.encryption_progressed', (event, tx) => applyEncryptionProgressed(tx, event)),
  ],
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
