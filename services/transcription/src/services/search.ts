import { z } from 'zod';
import {
  isId,
  SEARCH_HITS_PER_RECORDING,
  type EventOf,
  type SearchQuery,
  type SearchResults,
  type SearchSort,
} from '@earshot/contracts';
import { badRequest, BlindIndex, type Db, type Identity, type ServiceContext } from '@earshot/kit';
import type { TranscriptionConfig } from '../config';
import * as searchRepo from '../repositories/search';
import type { FoundHit, Parsed, SearchKey } from '../repositories/search';
import type { Scope } from '../repositories/transcripts';
import { scopeOf } from './scope';
import type { TranscriptWords } from './words-encryption';

/** The longest snippet, in words: a passage longer than this is cut around its first match. */
const SNIPPET_WORDS = 30;
/** Words kept before the first match when a passage is cut. */
const SNIPPET_LEAD = 8;

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);

/**
 * The words of a websearch query that a snippet marks: every word not excluded with `-`, quotes
 * and the `or` operator dropped, joined with `or` (a phrase's words are marked wherever they occur,
 * as ts_headline does).
 */
export function markedWords(q: string): string {
  return q
    .replace(/(^|\s)-("[^"]*("|$)|\S+)/g, ' ')
    .replace(/"/g, ' ')
    .split(/\s+/)
    .filter((w) => w && w.toLowerCase() !== 'or' && w !== '-')
    .join(' or ');
}

/**
 * A passage as HTML: the words at `marks` (1-based, as split at single spaces) wrapped in `<mark>`
 * without the punctuation around them, everything else escaped. We escape the text ourselves and
 * add the only markup: ts_headline's output is not HTML (it drops what looks like a tag, and
 * escapes nothing).
 */
export function snippetOf(text: string, marks: readonly number[]): string {
  const words = text.split(' ');
  const marked = new Set(marks.map((m) => m - 1));
  let from = 0;
  let to = words.length;
  if (words.length > SNIPPET_WORDS) {
    const first = marks.length ? Math.min(...marks) - 1 : 0;
    from = Math.max(0, Math.min(first - SNIPPET_LEAD, words.length - SNIPPET_WORDS));
    to = from + SNIPPET_WORDS;
  }
  const body = words
    .slice(from, to)
    .map((word, i) => {
      if (!marked.has(from + i)) return escapeHtml(word);
      const [, lead = '', core = '', trail = ''] = /^([^\p{L}\p{N}]*)(.*?)([^\p{L}\p{N}]*)$/u.exec(word) ?? [];
      return core ? `${escapeHtml(lead)}<mark>${escapeHtml(core)}</mark>${escapeHtml(trail)}` : escapeHtml(word);
    })
    .join(' ');
  return `${from > 0 ? '… ' : ''}${body}${to < words.length ? ' …' : ''}`;
}

const CursorShape = z
  .object({
    s: z.enum(['newest', 'best']),
    u: z.string().regex(/^-?\d{1,20}$/),
    f: z.string().uuid(),
    r: z
      .string()
      .regex(/^-?\d{1,20}$/)
      .optional(),
  })
  .strict();

export function encodeCursor(sort: SearchSort, key: SearchKey): string {
  return Buffer.from(
    JSON.stringify({
      s: sort,
      u: key.uploadedAtUs,
      f: key.fileId,
      ...(key.score === undefined ? {} : { r: key.score }),
    }),
  ).toString('base64url');
}

function readCursor(cursor: string): z.infer<typeof CursorShape> | null {
  try {
    return CursorShape.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
  } catch {
    return null;
  }
}

/** A cursor of this sort, made by encodeCursor; anything else is a 400 naming `cursor`. */
export function decodeCursor(cursor: string, sort: SearchSort): SearchKey {
  const parsed = readCursor(cursor);
  if (!parsed || parsed.s !== sort || (sort === 'best') !== (parsed.r !== undefined)) {
    throw badRequest('Invalid query.cursor: must be the nextCursor of a search with the same sort', {
      field: 'query.cursor',
    });
  }
  return { uploadedAtUs: parsed.u, fileId: parsed.f, ...(parsed.r === undefined ? {} : { score: parsed.r }) };
}

/** A lexeme of tsquery text (`'it''s'`, a backslash escaped as `\\`). */
const TSQUERY_LEXEME = /'((?:[^'\\]|''|\\.)*)'/g;

/** A tsquery's lexemes replaced by a company's blind-index tokens: the query of its sealed passages. */
export function blindQuery(query: string, index: BlindIndex): string {
  return query.replace(
    TSQUERY_LEXEME,
    (_match, quoted: string) => `'${index.token(quoted.replace(/''/g, "'").replace(/\\(.)/g, '$1'))}'`,
  );
}

/** Search across every transcript the caller may read. */
export class SearchService {
  constructor(
    private readonly ctx: ServiceContext<TranscriptionConfig>,
    private readonly words: TranscriptWords,
  ) {}

  async search(identity: Identity, input: SearchQuery): Promise<SearchResults> {
    const { q, sort, limit, cursor, companyId, ...filters } = input;
    const after = cursor ? decodeCursor(cursor, sort) : null;
    const scope = await scopeOf(this.ctx.db, identity, companyId);
    const request = {
      scope,
      q,
      marked: markedWords(q),
      filters,
      sort,
      after,
      limit,
      hitsPerRecording: SEARCH_HITS_PER_RECORDING,
    };
    const parsed = [...(await searchRepo.parse(this.ctx.db, scope, q)), ...(await this.sealedQueries(scope, q))];
    const found = await searchRepo.findRecordings(this.ctx.db, request, parsed);
    const page = found.slice(0, limit);
    const hits = await this.opened(
      await searchRepo.findHits(
        this.ctx.db,
        request,
        parsed,
        page.map((r) => r.fileId),
      ),
      request.marked,
    );
    const hitsOf = new Map<string, FoundHit[]>();
    for (const hit of hits) hitsOf.set(hit.fileId, [...(hitsOf.get(hit.fileId) ?? []), hit]);
    const last = page[page.length - 1];
    return {
      items: page.map((r) => ({
        fileId: r.fileId,
        originalName: r.originalName,
        uploadDate: r.uploadedAt.toISOString(),
        hits: (hitsOf.get(r.fileId) ?? []).map((h) => ({
          segmentId: h.segmentId,
          speakerName: h.speakerName,
          start: h.start,
          snippet: snippetOf(h.text, h.marks),
        })),
      })),
      nextCursor: found.length > limit && last ? encodeCursor(sort, last) : null,
    };
  }

  /**
   * The search hashed for each company whose sealed passages the scope covers, with that company's
   * key. One company's search asks the key ring (cached): a company that never had a key costs no
   * query. Searching every company finds the sealed ones in the index.
   */
  private async sealedQueries(scope: Scope, q: string): Promise<Parsed[]> {
    const db = this.ctx.db;
    if (scope.companyId && !(await this.words.keyIfAny(db, scope.companyId))) return [];
    const queries: Parsed[] = [];
    for (const { companyId, config } of await searchRepo.sealedCompanies(db, scope)) {
      const key = await this.words.keyIfAny(db, companyId);
      if (key)
        queries.push(
          searchRepo.parsedOf(
            config,
            blindQuery(await searchRepo.tsqueryOf(db, config, q), new BlindIndex(key, companyId)),
            companyId,
          ),
        );
    }
    return queries;
  }

  /** Sealed hits opened, and their words marked as plain ones are (only after opening: the database holds no words of them). */
  private async opened(hits: FoundHit[], marked: string): Promise<FoundHit[]> {
    const sealed = hits.filter((h) => h.sealed);
    if (sealed.length === 0) return hits;
    for (const hit of sealed)
      hit.text = this.words.openPassage(
        await this.words.key(this.ctx.db, hit.companyId),
        hit.companyId,
        hit.fileId,
        hit.text,
      );
    for (const config of new Set(sealed.map((h) => h.config))) {
      const ofConfig = sealed.filter((h) => h.config === config);
      const marks = await searchRepo.marksOf(
        this.ctx.db,
        config,
        ofConfig.map((h) => h.text),
        marked,
      );
      ofConfig.forEach((hit, i) => (hit.marks = marks[i] ?? []));
    }
    return hits;
  }
}

/**
 * company.created / company.updated: the language its transcripts are indexed in (an event without
 * one changes nothing). Sealed recordings are indexed again from their opened words.
 */
export async function applyCompanyLanguage(
  tx: Db,
  words: TranscriptWords,
  event: EventOf<'company.created' | 'company.updated'>,
): Promise<void> {
  const language = event.data.after?.language;
  if (language === undefined || !isId(event.data.id)) return;
  if (await searchRepo.saveCompanyLanguage(tx, event.data.id, language, new Date(event.occurredAt)))
    await words.reindexSealed(tx, event.data.id);
}

/** file.tags_changed: the recording's tags, for the tag filter. */
export async function applyTagsChanged(tx: Db, event: EventOf<'file.tags_changed'>): Promise<void> {
  if (isId(event.data.id))
    await searchRepo.saveTags(tx, event.data.id, event.data.after.tags, new Date(event.occurredAt));
}
