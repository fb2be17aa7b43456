import { sql, type SQL } from 'drizzle-orm';
import type { BlindIndex, Db } from '@earshot/kit';

/** A company's question as blind-index tokens (see BlindIndex): searched in its sealed rows. */
export interface BlindTerms {
  companyId: string;
  tokens: string[];
}

/** One search of `allWordsThenAny`: the English tsquery for plain rows, and a tsquery of tokens per company for sealed rows. */
export interface SearchQueries {
  plain: SQL;
  /** Per company with sealed rows: its tokens as a tsquery (null: the question has no word to look for). */
  blind: { companyId: string; query: SQL | null }[];
}

// Tokens are lowercase hex (BlindIndex): quoted, they are valid tsquery lexemes as they are.
const tokenQuery = (tokens: readonly string[], operator: '&' | '|'): SQL | null =>
  tokens.length === 0 ? null : sql`${tokens.map((t) => `'${t}'`).join(` ${operator} `)}::tsquery`;

/**
 * English full-text search as chat runs it everywhere (transcripts, knowledge files): every word
 * of the question must match first; when nothing has them all, any of them will do, ranked by how
 * many match and how often. `run` executes one search; `blind` are the question's tokens in each
 * company whose rows are sealed (their text is indexed by blind tokens of the same lexemes).
 */
export async function allWordsThenAny<T>(
  question: string,
  run: (queries: SearchQueries) => Promise<T[]>,
  blind: readonly BlindTerms[] = [],
): Promise<T[]> {
  const all = await run({
    plain: sql`websearch_to_tsquery('english', ${question})`,
    blind: blind.map((b) => ({ companyId: b.companyId, query: tokenQuery(b.tokens, '&') })),
  });
  if (all.length > 0) return all;
  return run({
    plain: sql`replace(plainto_tsquery('english', ${question})::text, ' & ', ' | ')::tsquery`,
    blind: blind.map((b) => ({ companyId: b.companyId, query: tokenQuery(b.tokens, '|') })),
  });
}

/** A lexeme of a text with its positions (`1,5`), as PostgreSQL's English configuration makes it. */
export interface Lexeme {
  lexeme: string;
  positions: string;
}

/**
 * The English lexemes of each text, with their positions: the blind index hashes exactly what
 * to_tsvector would have indexed, so sealed text is found by the same words (stemmed, stop words
 * left out) and ranked alike. The text is only read by this query, never stored.
 */
export async function lexemesOf(db: Db, texts: readonly string[]): Promise<Lexeme[][]> {
  const out: Lexeme[][] = texts.map(() => []);
  if (texts.length === 0) return out;
  const result = (await db.execute(sql`
    select t.i, l.lexeme, array_to_string(l.positions, ',') as positions
    from json_array_elements_text(${JSON.stringify(texts)}::json) with ordinality as t(text, i),
      unnest(to_tsvector('english', t.text)) as l`)) as unknown as {
    rows: { i: string | number; lexeme: string; positions: string | null }[];
  };
  for (const row of result.rows) out[Number(row.i) - 1]!.push({ lexeme: row.lexeme, positions: row.positions ?? '' });
  return out;
}

/** The question's lexemes as plainto_tsquery would look for them. */
export async function questionLexemes(db: Db, question: string): Promise<string[]> {
  return (await lexemesOf(db, [question]))[0]!.map((l) => l.lexeme);
}

/** A text's blind tsvector (tokens in place of lexemes, positions kept) as a tsvector literal. */
export function blindVector(index: BlindIndex, lexemes: readonly Lexeme[]): string {
  const positions = new Map<string, string[]>();
  for (const l of lexemes) {
    const token = index.token(l.lexeme);
    positions.set(token, [...(positions.get(token) ?? []), ...(l.positions ? [l.positions] : [])]);
  }
  return [...positions].map(([token, at]) => (at.length ? `'${token}':${at.join(',')}` : `'${token}'`)).join(' ');
}

/** Companies in chat's key ring that have a data key: their text may be sealed. `companyId` narrows to one. */
export async function keyedCompanies(db: Db, companyId: string | null): Promise<string[]> {
  const result = (await db.execute(sql`
    select company_id from chat.company_keys
    where wrapped_key is not null ${companyId ? sql`and company_id = ${companyId}` : sql``}`)) as unknown as {
    rows: { company_id: string }[];
  };
  return result.rows.map((r) => r.company_id);
}
