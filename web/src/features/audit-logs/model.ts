// The audit log screen's types (the contracts') and its filters, which live in the URL query.
import type { AuditEntryDto, AuditExportQuery, AuditPage, AuditVerifyResult } from '@earshot/contracts';

export type AuditEntry = AuditEntryDto;
export type { AuditPage };
export type ChainState = AuditVerifyResult;
export type ExportFormat = AuditExportQuery['format'];

/** Entries per request: the first page, then each "Load more". */
export const AUDIT_PAGE_SIZE = 50;

/** What the screen filters by, as the URL query holds it (a reload keeps it). */
export const FILTER_KEYS = ['companyId', 'actor', 'type', 'targetType', 'targetId', 'from', 'to'] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];
export type AuditFilters = Partial<Record<FilterKey, string>>;

export function filtersFromSearch(search: URLSearchParams): AuditFilters {
  const filters: AuditFilters = {};
  for (const key of FILTER_KEYS) {
    const value = search.get(key)?.trim();
    if (value) filters[key] = value;
  }
  return filters;
}

export function searchFromFilters(filters: AuditFilters): URLSearchParams {
  const search = new URLSearchParams();
  for (const key of FILTER_KEYS) {
    const value = filters[key]?.trim();
    if (value) search.set(key, value);
  }
  return search;
}

/**
 * The API's query for the screen's filters. One "actor" box: an e-mail address goes to
 * `actorEmail`, anything else is taken as the actor's id.
 */
export function apiQuery(filters: AuditFilters): Record<string, string> {
  const { actor, ...rest } = filters;
  const query: Record<string, string> = {};
  for (const [key, value] of Object.entries(rest)) if (value) query[key] = value;
  if (actor) query[actor.includes('@') ? 'actorEmail' : 'actorId'] = actor;
  return query;
}

export function exportUrl(format: ExportFormat, filters: AuditFilters): string {
  return `/api/audit/export?${new URLSearchParams({ format, ...apiQuery(filters) }).toString()}`;
}
