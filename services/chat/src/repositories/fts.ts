import { sql, type SQL } from 'drizzle-orm';

/**
 * English full-text search as chat runs it everywhere (transcripts, knowledge files): every word
 * of the question must match first; when nothing has them all, any of them will do, ranked by how
 * many match and how often. `run` executes one search for a tsquery expression.
 */
export async function allWordsThenAny<T>(question: string, run: (query: SQL) => Promise<T[]>): Promise<T[]> {
  const all = await run(sql`websearch_to_tsquery('english', ${question})`);
  if (all.length > 0) return all;
  return run(sql`replace(plainto_tsquery('english', ${question})::text, ' & ', ' | ')::tsquery`);
}
