import {
  assertRemoteBilling,
  ConfigError,
  createStorage,
  defineService,
  encryptionConfigShape,
  on,
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
import { tenantErasePart, tenantExportPart } from './services/privacy';
import { saasRoutes } from './routes/saas';
import { applySignedIn, SaasService } from './services/saas';

type TenantConfig = ServiceContext['config'] & StorageConfig & EncryptionConfig;

/** The tenant service: companies, their branding, API keys, policies and feature switches; clients; holds; the platform overview. See README.md. */
export const tenantService = defineService<TenantConfig>({
  name: 'tenant',
  schema: 'tenant',
  prefixes: ['/companies', '/config', '/features', '/clients', '/dashboards/saas'],
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
  configShape: { ...storageConfigShape, ...encryptionConfigShape },
  async routes(app, ctx) {
    const companies = new CompanyService(ctx);
    // The hashes live here: this process's verifier (all-in-one: the gateway's too) asks directly.
    ctx.tokens.apiKeys.serveLocally(companies.apiKeys);
    await companyRoutes(app, companies);
    await policyRoutes(app, new PolicyService(ctx));
    await holdRoutes(app, new HoldService(ctx));
    await encryptionProgressRoutes(app, new EncryptionProgressService(ctx));
    await brandingRoutes(app, new BrandingService(ctx, createStorage(ctx.config)));
    await configRoutes(app, companies);
    await featureRoutes(app, new FeatureService(ctx));
    await clientRoutes(app, new ClientService(ctx));
    await saasRoutes(app, new SaasService(ctx));
  },
  async internalRoutes(app, ctx) {
    const token = ctx.config.INTERNAL_API_TOKEN;
    if (!token)
      throw new ConfigError([
        'INTERNAL_API_TOKEN: required when the tenant service runs on its own (the gateway and the other services check company API keys with it)',
      ]);
    // On its own, the tenant opens new companies' accounts and reads balances at the billing service.
    assertRemoteBilling(ctx.config);
    await internalRoutes(app, new CompanyService(ctx).apiKeys, token);
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
    // Last sign-ins, for the platform overview's active users.
    on('user.signed_in', (event, tx) => applySignedIn(tx, event)),
    // Each service's background encryption of a company's existing data, for the console.
    on('company.encryption_progressed', (event, tx) => applyEncryptionProgressed(tx, event)),
  ],
});
