import { z } from 'zod';
import { Id } from '../common';
import { IsoDate } from './tasks';

// The dashboards. Days and periods are UTC: a call belongs to the day of its recording
// time (its upload time when that is unknown); a week starts on Monday; a period is named by its
// first day (YYYY-MM-DD). The prompt service answers analytics, scorecards and CRM from its
// read model; the tenant service answers the platform overview (/dashboards/saas).

export const DASHBOARD_GROUPS = ['day', 'week', 'month'] as const;
export type DashboardGroup = (typeof DASHBOARD_GROUPS)[number];
/** The longest range a dashboard answers, in days. */
export const DASHBOARD_RANGE_DAYS_MAX = 731;

const Range = {
  /** First day included (default: 90 days before `to`). */
  from: IsoDate.optional(),
  /** Last day included (default: today, UTC). */
  to: IsoDate.optional(),
  /** HOST_ADMIN: the company to look at (required for them); others always see their own (naming another company is a 404). */
  companyId: Id.optional(),
};

const Filters = {
  /** Only calls of this agent (a user id: the uploader, or the person named as a call's agent speaker). */
  agentId: Id.optional(),
  clientId: Id.optional(),
  tag: z
    .string()
    .trim()
    .min(1)
    .max(60)
    .refine((s) => !s.includes('\u0000'), 'must not contain NUL characters')
    .optional(),
};

/** GET /api/dashboards/analytics. */
export const AnalyticsQuery = z
  .object({ ...Range, ...Filters, groupBy: z.enum(DASHBOARD_GROUPS).default('week') })
  .strict();
export type AnalyticsQuery = z.infer<typeof AnalyticsQuery>;
export type AnalyticsQueryInput = z.input<typeof AnalyticsQuery>;

/** Averages over the calls in range that have the figure; null when none has. Shares are 0–1. */
export const TalkFigures = z.object({
  /** Agent's share of talk time on two-speaker stereo calls (left channel = agent, right = customer). */
  agentShare: z.number().nullable(),
  customerShare: z.number().nullable(),
  /** Silence as a share of each call's duration. */
  silenceShare: z.number().nullable(),
  /** Overlapping speech stretches per call. */
  interruptionsPerCall: z.number().nullable(),
  /** All words over all talk time, per minute. */
  wordsPerMinute: z.number().nullable(),
});
export type TalkFigures = z.infer<typeof TalkFigures>;

export const AnalyticsDto = z.object({
  calls: z.array(z.object({ period: z.string(), count: z.number().int(), seconds: z.number() })),
  talk: TalkFigures,
  byAgent: z.array(
    z.object({
      agentId: z.string(),
      name: z.string(),
      count: z.number().int(),
      seconds: z.number(),
      talkShare: z.number().nullable(),
      wordsPerMinute: z.number().nullable(),
    }),
  ),
  byClient: z.array(
    z.object({
      clientId: z.string(),
      name: z.string(),
      count: z.number().int(),
      seconds: z.number(),
      lastCall: z.string().nullable(),
    }),
  ),
  byTag: z.array(z.object({ tag: z.string(), count: z.number().int(), seconds: z.number() })),
});
export type AnalyticsDto = z.infer<typeof AnalyticsDto>;

/** GET /api/dashboards/scorecards: one field of one prompt's results over time. */
export const ScorecardQuery = z
  .object({
    ...Range,
    ...Filters,
    promptId: Id,
    field: z.string().trim().min(1).max(100),
    groupBy: z.enum(DASHBOARD_GROUPS).default('week'),
  })
  .strict();
export type ScorecardQuery = z.infer<typeof ScorecardQuery>;
export type ScorecardQueryInput = z.input<typeof ScorecardQuery>;

/**
 * One period: `average` for an integer field, `distribution` (answer → runs) for an option
 * (custom) field, `rate` (share of true, 0–1) for a boolean field; only the one that fits is set.
 * `runs`: completed runs of the prompt in the period that gave the field.
 */
export const ScorecardPoint = z.object({
  period: z.string(),
  average: z.number().nullable().optional(),
  distribution: z.record(z.string(), z.number().int()).optional(),
  rate: z.number().nullable().optional(),
  runs: z.number().int(),
});
export const ScorecardSeries = z.array(ScorecardPoint);
export type ScorecardPoint = z.infer<typeof ScorecardPoint>;

/** GET /api/dashboards/crm: optionally with a scorecard field whose monthly trend each client shows. */
export const CrmQuery = z
  .object({ companyId: Id.optional(), promptId: Id.optional(), field: z.string().trim().min(1).max(100).optional() })
  .strict();
export type CrmQuery = z.infer<typeof CrmQuery>;

export const CrmDto = z.object({
  items: z.array(
    z.object({
      clientId: z.string(),
      name: z.string(),
      organisation: z.string().nullable(),
      calls: z.number().int(),
      /** The latest call's time (ISO 8601), null without calls. */
      lastContact: z.string().nullable(),
      /** The last 6 months (YYYY-MM-01), the chosen field's average (integer), rate (boolean) or most given answer (option); empty without a field. */
      trend: z.array(z.object({ period: z.string(), value: z.union([z.number(), z.string()]).nullable() })),
      openTasks: z.number().int(),
    }),
  ),
});
export type CrmDto = z.infer<typeof CrmDto>;

/** GET /api/dashboards/saas (HOST_ADMIN): the platform at a glance. Months are YYYY-MM (UTC). */
export const SaasDto = z.object({
  statuses: z.array(z.object({ status: z.string(), count: z.number().int() })),
  /** People who signed in within the last 30 days, over all companies. */
  activeUsers: z.number().int(),
  companies: z.array(
    z.object({
      companyId: z.string(),
      name: z.string(),
      status: z.string(),
      users: z.number().int(),
      activeUsers: z.number().int(),
      storageBytes: z.number(),
      /** The company's storage limit in bytes; null: none. */
      maxStorageBytes: z.number().nullable(),
      /** This month. */
      transcriptionSeconds: z.number(),
      credits: z.number(),
    }),
  ),
  /** The last 12 months, per company (months without use left out). */
  monthly: z.array(
    z.object({ month: z.string(), companyId: z.string(), transcriptionSeconds: z.number(), credits: z.number() }),
  ),
  /** This month's ten largest users of credits. */
  top: z.array(
    z.object({ companyId: z.string(), name: z.string(), credits: z.number(), transcriptionSeconds: z.number() }),
  ),
});
export type SaasDto = z.infer<typeof SaasDto>;

/** GET /api/dashboards/calls: the calls behind a chart's point or a table's row (what "each chart links to the calls behind it" opens). */
export const DashboardCallsQuery = z
  .object({ ...Range, ...Filters, limit: z.coerce.number().int().min(1).max(200).default(50) })
  .strict();
export type DashboardCallsQuery = z.infer<typeof DashboardCallsQuery>;
export const DashboardCallsDto = z.object({
  items: z.array(
    z.object({
      fileId: z.string(),
      originalName: z.string(),
      date: z.string(),
      seconds: z.number(),
      agentId: z.string().nullable(),
      clientId: z.string().nullable(),
    }),
  ),
  total: z.number().int(),
});
export type DashboardCallsDto = z.infer<typeof DashboardCallsDto>;
