import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ERROR_CODES, FEATURE_DISABLED_MESSAGE, FEATURE_ROUTES, FEATURES, type FeatureKey } from '@earshot/contracts';
import type { Db } from './db/database';
import type { Migration } from './db/migrate';
import { on, type HandlerSpec } from './bus/handlers';
import { HttpError } from './errors';

/**
 * Feature switches, enforced where the routes are: every service that answers a feature's routes
 * (FEATURE_ROUTES in the contracts) keeps a small copy of the switches from the tenant service's
 * events and refuses a company member's request to a feature that is off. The runtime adds the
 * tables, the handlers and the check to such a service by itself (see mountServices), so the rule
 * is the same in every service and in both run modes.
 */

/** The route prefixes of a module that belong to a switchable feature, with the feature. */
export function gatedPrefixes(prefixes: readonly string[]): [prefix: string, feature: FeatureKey][] {
  const own = prefixes.map((p) => `/api${p}`);
  return Object.entries(FEATURE_ROUTES).flatMap(([feature, routes]) =>
    routes.filter((route) => own.includes(route)).map((route): [string, FeatureKey] => [route, feature as FeatureKey]),
  );
}

export function featureSwitchMigrations(): Migration[] {
  return [
    {
      // Sorts before every service's own migrations and depends on none of them.
      name: '0000_kit_feature_switches',
      sql: `
      create table feature_switches (
        company_id text primary key,
        features jsonb not null,
        updated_at timestamptz not null
      );
      create table platform_features (
        key text primary key,
        enabled boolean not null,
        updated_at timestamptz not null
      );`,
    },
  ];
}

const DEFAULTS: Record<string, boolean> = Object.fromEntries(FEATURES.map((f) => [f.key, f.defaultEnabled]));

/** How long a replica trusts its cached switches when another replica applied the change. */
export const FEATURE_CACHE_MS = 5_000;

interface Cached {
  features: Record<string, unknown> | null;
  until: number;
}

/**
 * One service's copy of the feature switches: the handlers that keep it (company.features_changed,
 * feature.platform_switched, company.deleted; the newest event by occurredAt wins, so a late one
 * cannot turn a switch back) and the check its routes make. Checks are answered from memory: the
 * handlers clear it when they apply a change here, and entries expire after FEATURE_CACHE_MS for
 * the replicas that did not apply it (one replica of a service receives each event).
 */
export class FeatureSwitches {
  private readonly companies = new Map<string, Cached>();
  private platform: Cached | null = null;
  private readonly t;

  constructor(
    private readonly db: Db,
    schema: string,
  ) {
    this.t = sql.identifier(schema);
  }

  handlers(): HandlerSpec[] {
    const t = this.t;
    const forget = () => {
      this.companies.clear();
      this.platform = null;
    };
    return [
      on(
        'company.features_changed',
        async (event, tx) => {
          await tx.execute(sql`insert into ${t}.feature_switches (company_id, features, updated_at)
          values (${event.data.id}, ${JSON.stringify(event.data.after)}::jsonb, ${event.occurredAt})
          on conflict (company_id) do update set features = excluded.features, updated_at = excluded.updated_at
          where feature_switches.updated_at <= excluded.updated_at`);
        },
        { afterCommit: forget },
      ),
      on(
        'feature.platform_switched',
        async (event, tx) => {
          await tx.execute(sql`insert into ${t}.platform_features (key, enabled, updated_at)
          values (${event.data.key}, ${event.data.enabled}, ${event.occurredAt})
          on conflict (key) do update set enabled = excluded.enabled, updated_at = excluded.updated_at
          where platform_features.updated_at <= excluded.updated_at`);
        },
        { afterCommit: forget },
      ),
      on(
        'company.deleted',
        async (event, tx) => {
          await tx.execute(sql`delete from ${t}.feature_switches where company_id = ${event.data.id}`);
        },
        { afterCommit: forget },
      ),
    ];
  }

  /** Whether a company has a feature: not killed platform-wide, and on for the company (or by default). */
  async enabled(companyId: string, feature: FeatureKey): Promise<boolean> {
    const platform = await this.platformSwitches();
    if (platform[feature] === false) return false;
    const own = (await this.companySwitches(companyId))?.[feature];
    return typeof own === 'boolean' ? own : (DEFAULTS[feature] ?? true);
  }

  private async platformSwitches(): Promise<Record<string, unknown>> {
    if (this.platform && this.platform.until > Date.now()) return this.platform.features!;
    const result = (await this.db.execute(sql`select key, enabled from ${this.t}.platform_features`)) as unknown as {
      rows: { key: string; enabled: boolean }[];
    };
    const features = Object.fromEntries(result.rows.map((r) => [r.key, r.enabled]));
    this.platform = { features, until: Date.now() + FEATURE_CACHE_MS };
    return features;
  }

  private async companySwitches(companyId: string): Promise<Record<string, unknown> | null> {
    const cached = this.companies.get(companyId);
    if (cached && cached.until > Date.now()) return cached.features;
    const result = (await this.db.execute(
      sql`select features from ${this.t}.feature_switches where company_id = ${companyId}`,
    )) as unknown as { rows: { features: unknown }[] };
    const raw = result.rows[0]?.features;
    const features = (typeof raw === 'string' ? JSON.parse(raw) : (raw ?? null)) as Record<string, unknown> | null;
    this.companies.set(companyId, { features, until: Date.now() + FEATURE_CACHE_MS });
    return features;
  }

  /**
   * Refuses a company member's request to a switched-off feature with 403 FEATURE_DISABLED, before
   * the body is read. The platform administrator is never refused (they run the platform, not a
   * company), nor is anyone without a company.
   */
  gate(scope: FastifyInstance, prefixes: readonly string[]): void {
    const gated = gatedPrefixes(prefixes);
    if (gated.length === 0) return;
    scope.addHook('preParsing', async (request, _reply, payload) => {
      const who = request.identity;
      const feature = who?.companyId && who.role !== 'HOST_ADMIN' ? featureOf(request, gated) : null;
      if (feature && !(await this.enabled(who!.companyId!, feature))) {
        throw new HttpError(403, FEATURE_DISABLED_MESSAGE, ERROR_CODES.FEATURE_DISABLED);
      }
      return payload;
    });
  }
}

function featureOf(request: FastifyRequest, gated: readonly [string, FeatureKey][]): FeatureKey | null {
  const url = request.routeOptions.url ?? '';
  for (const [prefix, feature] of gated) if (url === prefix || url.startsWith(`${prefix}/`)) return feature;
  return null;
}
