/** The http(s) links in a plain-text mail, in order, once each: the Outgoing mail page lists them as real links. */
export function linksIn(text: string): string[] {
  const found = text.match(/https?:\/\/[^\s<>"')\]]+/g) ?? [];
  return [...new Set(found.map((link) => link.replace(/[.,;:!?]+$/, '')))];
}

/** Inserts `insert` into `value` in place of the selection [start, end). */
export function insertAt(value: string, start: number, end: number, insert: string): { value: string; caret: number } {
  return { value: value.slice(0, start) + insert + value.slice(end), caret: start + insert.length };
}
