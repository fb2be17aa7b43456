import { z } from 'zod';
import { Id, TASK_SORTS } from '@earshot/contracts';
import { invalid } from './invalid';

/** What a list cursor carries: the sort it was made for and the last row's sort key and id. */
const Cursor = z.object({ s: z.enum(TASK_SORTS), o: z.enum(['asc', 'desc']), v: z.string().max(300), id: Id }).strict();
export type Cursor = z.infer<typeof Cursor>;

const INVALID = 'not a cursor of this list (ask again without it)';

export const encodeCursor = (cursor: Cursor): string =>
  Buffer.from(JSON.stringify(cursor), 'utf8').toString('base64url');

/** Reads a cursor; one that is malformed, or was made for another sort or order, is a 400 naming it. */
export function decodeCursor(text: string, sort: Cursor['s'], order: Cursor['o']): Cursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    parsed = null;
  }
  const cursor = Cursor.safeParse(parsed);
  if (!cursor.success || cursor.data.s !== sort || cursor.data.o !== order || !validKey(cursor.data)) {
    throw invalid('query.cursor', INVALID);
  }
  return cursor.data;
}

/** The key must cast to its sort's type in SQL: checked here, so a forged one is a 400, not a 500. */
function validKey({ s, v }: Cursor): boolean {
  switch (s) {
    case 'dueDate':
      return /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v));
    case 'createdAt':
      return !Number.isNaN(Date.parse(v));
    case 'status':
      return /^[1-3]$/.test(v);
    default:
      return !v.includes('\u0000');
  }
}
