import { SYSTEM_ACTOR, isId, type Actor } from '@earshot/contracts';
import {
  ContextTimers,
  createStorage,
  defineService,
  on,
  perContext,
  type Db,
  type Emit,
  type StorageConfig,
} from '@earshot/kit';
import { authConfigShape, type AuthConfig } from './config';
import { migrations } from './db/migrations';
import { findCompany, markCompanyDeleted, upsertCompany } from './repositories/companies';
import { revokeCompanySessions } from './repositories/tokens';
import { forgetUpload, recordUpload } from './repositories/usage';
import { authRoutes } from './routes/auth';
import { privacyRoutes } from './routes/privacy';
import { ssoRoutes } from './routes/sso';
import { scimRoutes, scimTokenRoutes } from './routes/scim';
import { userRoutes } from './routes/users';
import { startAuth } from './services/bootstrap';
import { authContext } from './services/context';
import { companyRemoval } from './services/company-removal';
import { authServices } from './services/index';
import {
  PrivacyJobs,
  assembleExport,
  expireExports,
  authErasePart,
  authExportPart,
  clientCompanies,
  finishErase,
  recordingsAndHolds,
} from './services/privacy';
import { startDueJobs } from './services/privacy-line';
import { BLOCKED_COMPANY_STATUSES, announceEnded, recordEnded, type EndedSessions } from './services/sessions';

const timers = new ContextTimers();
/** One storage client per context for the privacy jobs (routes, parts, the ZIP, its expiry): on S3 each client checks the bucket once. */
const privacyStorage = perContext((ctx: { config: StorageConfig }) => createStorage(ctx.config));
const EXPORT_SWEEP_MS = 60 * 60_000;

/** The auth service: users, credentials, roles, sessions, sign-in providers. See README.md. */
export const authService = defineService<AuthConfig>({
  name: 'auth',
  schema: 'auth',
  prefixes: ['/auth', '/users', '/roles', '/privacy', '/companies/:id/sso', '/companies/:id/scim-tokens', '/scim'],
  migrations,
  configShape: authConfigShape,
  async routes(app, ctx) {
    const auth = await authContext(ctx);
    const services = authServices(auth);
    await authRoutes(app, auth, services);
    await userRoutes(app, auth, services);
    await ssoRoutes(app, auth, services.sso);
    await privacyRoutes(app, new PrivacyJobs(ctx, privacyStorage(ctx)));
    await scimTokenRoutes(app, services.scimTokens);
    await scimRoutes(app, auth, services.scimTokens, services.scim);
  },
  // Export ZIPs that are due go at start and then every hour (expireExports). The privacy jobs
  // whose turn has come start too: a cap raised since the last run lets more of a company's go.
  async start(ctx) {
    await startAuth(ctx);
    await ctx.transact((tx, emit) => startDueJobs(tx, emit, ctx.config.PRIVACY_COMPANY_CONCURRENCY));
    const storage = privacyStorage(ctx);
    const sweep = () =>
      expireExports(ctx.db, storage, new Date()).then(
        () => undefined,
        (error: unknown) => ctx.logger.error({ err: error }, 'expired export ZIPs could not be removed'),
      );
    await sweep();
    timers.every(ctx, EXPORT_SWEEP_MS, () => void sweep());
  },
  async stop(ctx) {
    timers.stop(ctx);
  },
  // The company projection: domain (sign-in), status (who may sign in) and max users (registration).
  // Per company the newest event wins, so a late company.updated cannot revive a deleted company.
  // A company deleted or switched off ends its people's sessions at once.
  subscriptions: (ctx) => {
    // What a company event ended, told to the in-process verifier once its transaction committed.
    const ended = new Map<string, EndedSessions>();
    const options = {
      entity: (event: { data: { id: string } }) => event.data.id,
      afterCommit: (event: { id: string }) => {
        announceEnded(ctx, ended.get(event.id));
        ended.delete(event.id);
      },
    };
    const endAll = async (tx: Db, emit: Emit, event: { id: string; actor: Actor; data: { id: string } }) => {
      const sessionIds = await revokeCompanySessions(tx, event.data.id);
      ended.set(
        event.id,
        await recordEnded(ctx, tx, emit, {
          sessionIds,
          userId: null,
          companyId: event.data.id,
          reason: 'company_blocked',
          actor: event.actor ?? SYSTEM_ACTOR,
        }),
      );
    };
    return [
      ...(['company.created', 'company.updated'] as const).map((type) =>
        on(
          type,
          async (event, tx, emit) => {
            const { data } = event;
            if (!data.after) return;
            const before = await findCompany(tx, data.id);
            const { domain, name, status, maxUsers } = data.after;
            await upsertCompany(tx, {
              id: data.id,
              domain,
              name,
              type: data.after.type ?? before?.type ?? null,
              status,
              maxUsers,
            });
            const blocked = (status: string) => BLOCKED_COMPANY_STATUSES.has(status.toLowerCase());
            if (blocked(data.after.status) && !(before && blocked(before.status))) await endAll(tx, emit, event);
          },
          options,
        ),
      ),
      on(
        'company.deleted',
        async (event, tx, emit) => {
          await markCompanyDeleted(tx, event.data.id);
          await endAll(tx, emit, event);
        },
        options,
      ),
      // Who uploaded how much (the consumer users list), from the file service's facts.
      on('file.uploaded', async ({ companyId, data }, tx) => {
        if (!isId(data.id)) return;
        await recordUpload(tx, {
          fileId: data.id,
          companyId: isId(companyId) ? companyId : null,
          userId: isId(data.uploadedBy) ? data.uploadedBy : null,
          size: data.size,
        });
      }),
      on('file.deleted', async ({ data }, tx) => {
        if (isId(data.id)) await forgetUpload(tx, data.id);
      }),
      // After the one above (same transaction): the sessions are ended, then the users go.
      companyRemoval,
      // A person's data: auth's own parts, the ZIP or the report once every service has
      // answered, and what an erasure is refused for.
      authExportPart(privacyStorage(ctx)),
      assembleExport(ctx, privacyStorage(ctx)),
      authErasePart(ctx),
      finishErase(ctx),
      ...clientCompanies,
      ...recordingsAndHolds,
    ];
  },
});
