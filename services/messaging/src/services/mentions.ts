import type { PersonRow } from '../db/schema';

type Named = Pick<PersonRow, 'userId' | 'firstName' | 'lastName'>;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** `@name` as a whole word: not followed by another letter or digit (so `@Ann` is not `@Anna`). */
const mentionOf = (name: string) =>
  new RegExp(`(^|[^\\p{L}\\p{N}_])@${escape(name).replace(/\s+/g, '\\s+')}(?![\\p{L}\\p{N}_])`, 'iu');

/**
 * Who a text mentions: `@First Last` for anyone of the company, or `@First` when exactly one
 * person has that first name (two Annas: `@Anna` names nobody, `@Anna Tamm` still does).
 */
export function mentionedIn(text: string, people: readonly Named[]): Set<string> {
  const found = new Set<string>();
  if (!text.includes('@')) return found;
  const firstNames = new Map<string, number>();
  for (const p of people)
    firstNames.set(p.firstName.trim().toLowerCase(), (firstNames.get(p.firstName.trim().toLowerCase()) ?? 0) + 1);
  for (const person of people) {
    const first = person.firstName.trim();
    const full = `${first} ${person.lastName.trim()}`.trim();
    if (!first) continue;
    if (mentionOf(full).test(text) || (firstNames.get(first.toLowerCase()) === 1 && mentionOf(first).test(text)))
      found.add(person.userId);
  }
  return found;
}
