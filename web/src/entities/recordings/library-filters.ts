// The filters the recordings list (/transcripts) and the search (/search) share, kept in the
// page's URL query so a reload, Back or a shared link keeps them. Values that could not have come
// from the filter form (a malformed date, an unknown status) are dropped rather than sent, so a
// hand-edited link never turns the list into a 400.
import { TAG_LENGTH_MAX, TRANSCRIPTION_STATUSES, type TranscriptionStatus } from '@earshot/contracts/constants';
import { LANGUAGES, type LanguageCode } from '../../i18n/languages';

export interface LibraryFilters {
  tag?: string;
  clientId?: string;
  /** YYYY-MM-DD, inclusive, UTC. */
  from?: string;
  to?: string;
  /** A speaker's name (the server matches it whole, case-insensitively). */
  speaker?: string;
  status?: TranscriptionStatus;
  language?: LanguageCode;
  /** HOST_ADMIN only: one company's recordings. */
  companyId?: string;
}

export const FILTER_KEYS = [
  'tag',
  'clientId',
  'from',
  'to',
  'speaker',
  'status',
  'language',
  'companyId',
] as const satisfies ReadonlyArray<keyof LibraryFilters>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// The server's limits (contracts TagName, RecordingFilters.speaker): longer text cannot match.
const SPEAKER_MAX = 80;

function text(value: string | null, max: number): string | undefined {
  const trimmed = value?.trim();
  return trimmed && trimmed.length <= max && !/\p{Cc}/u.test(trimmed) ? trimmed : undefined;
}

/** The filters a URL query holds (anything unusable left out). */
export function filtersFromParams(params: URLSearchParams): LibraryFilters {
  const filters: LibraryFilters = {};
  const tag = text(params.get('tag'), TAG_LENGTH_MAX);
  if (tag) filters.tag = tag.toLowerCase();
  const speaker = text(params.get('speaker'), SPEAKER_MAX);
  if (speaker) filters.speaker = speaker;
  for (const key of ['clientId', 'companyId'] as const) {
    const id = params.get(key);
    if (id && ID.test(id)) filters[key] = id;
  }
  for (const key of ['from', 'to'] as const) {
    const day = params.get(key);
    if (day && DAY.test(day) && !Number.isNaN(Date.parse(`${day}T00:00:00Z`))) filters[key] = day;
  }
  const status = params.get('status');
  if (status && (TRANSCRIPTION_STATUSES as readonly string[]).includes(status))
    filters.status = status as TranscriptionStatus;
  const language = params.get('language');
  if (language && LANGUAGES.some((item) => item.code === language)) filters.language = language as LanguageCode;
  return filters;
}

/** `params` with the filters written in (empty ones removed); other keys (a search's `q`) stay. */
export function paramsWithFilters(params: URLSearchParams, filters: LibraryFilters): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const key of FILTER_KEYS) {
    const value = filters[key]?.trim();
    if (value) next.set(key, value);
    else next.delete(key);
  }
  return next;
}

export function activeFilterCount(filters: LibraryFilters): number {
  return FILTER_KEYS.filter((key) => filters[key]).length;
}
