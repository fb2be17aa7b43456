import { z } from 'zod';
import { RecordingFilters } from './file';

/*
 * GET /search: full-text search over every transcript of the company the caller may read.
 * Results are recordings, each with up to SEARCH_HITS_PER_RECORDING matching passages.
 */

export const SEARCH_SORTS = ['newest', 'best'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];
export const SEARCH_QUERY_MAX = 200;
export const SEARCH_LIMIT_MAX = 50;
export const SEARCH_HITS_PER_RECORDING = 3;

// eslint-disable-next-line no-control-regex
const ONE_LINE = /^[^\u0000-\u001f\u007f]*$/;

export const SearchQuery = RecordingFilters.extend({
  /** Words to find (stemmed with the company's language); "quoted words" must follow one another; -word excludes. */
  q: z.string().trim().min(1).max(SEARCH_QUERY_MAX).regex(ONE_LINE, 'must not contain control characters'),
  sort: z.enum(SEARCH_SORTS).default('newest'),
  /** The `nextCursor` of the previous page (opaque). */
  cursor: z
    .string()
    .min(1)
    .max(300)
    .regex(/^[A-Za-z0-9_-]+$/, 'must be a cursor from nextCursor')
    .optional(),
  limit: z.coerce.number().int().min(1).max(SEARCH_LIMIT_MAX).default(20),
}).strict();
export type SearchQuery = z.infer<typeof SearchQuery>;

/**
 * One matching passage. `snippet` is HTML: the matched words inside `<mark>…</mark>`, everything
 * else escaped (`&lt;`, `&amp;`…), so it may be rendered as is. `start` is in seconds.
 */
export const SearchHit = z.object({
  segmentId: z.string(),
  speakerName: z.string(),
  start: z.number(),
  snippet: z.string(),
});
export type SearchHit = z.infer<typeof SearchHit>;

export const SearchItem = z.object({
  fileId: z.string(),
  originalName: z.string(),
  uploadDate: z.string(),
  hits: z.array(SearchHit),
});
export type SearchItem = z.infer<typeof SearchItem>;

export const SearchResults = z.object({ items: z.array(SearchItem), nextCursor: z.string().nullable() });
export type SearchResults = z.infer<typeof SearchResults>;
