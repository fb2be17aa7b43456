import { detectSensitive, type RedactionKind } from './detectors';
import type { RedactionWord } from './numbers';
import { cutsOf, rebuild, tokenize, type Cut } from './normalise';

export { detectSensitive, REDACTION_KINDS, type RedactionKind, type IndexSpan } from './detectors';
export { rebuild, type Cut } from './normalise';
export type { RedactionWord } from './numbers';

/** What a hidden word reads as: the label keeps the words' time span. */
export const REDACTION_LABELS: Readonly<Record<RedactionKind, string>> = {
  card_number: '[card number]',
  card_cvv: '[card security code]',
  card_expiry: '[card expiry]',
  iban: '[IBAN]',
  national_id: '[national ID]',
  email: '[e-mail]',
  phone: '[phone number]',
};

/**
 * What the detectors hide in one speaker's words (in time order): the spans, by word index, and
 * the characters each word loses (a number glued to a word hides the number only, see normalise.ts).
 * `keep`: kinds left as they are (a client's phone field holds a phone number on purpose).
 */
export function hiddenIn(
  words: readonly RedactionWord[],
  keep: readonly RedactionKind[] = [],
): {
  spans: { kind: RedactionKind; first: number; last: number }[];
  cuts: Map<number, Cut<number>[]>;
} {
  const { tokens, words: read } = tokenize(words);
  const spans = detectSensitive(read).filter((span) => !keep.includes(span.kind));
  const cuts = new Map<number, Cut<number>[]>();
  spans.forEach((span, index) => {
    for (const { word, cut } of cutsOf(words, tokens, span.first, span.last, index))
      cuts.set(word, [...(cuts.get(word) ?? []), cut]);
  });
  return {
    spans: spans.map((s) => ({ kind: s.kind, first: tokens[s.first]!.word, last: tokens[s.last]!.word })),
    cuts,
  };
}

/**
 * Hides what the detectors find in a text that is not a transcript's words (a speaker's name, an
 * edit's summary, a tag, a task's title, a chat question): its words are the text's
 * whitespace-separated parts. `count` is the spans hidden; `keep`, kinds left as typed.
 */
export function redactText(text: string, keep: readonly RedactionKind[] = []): { text: string; count: number } {
  const parts = text.split(/(\s+)/);
  const words = parts.flatMap((part, k) =>
    k % 2 === 0 && part ? [{ id: String(k), text: part, start: 0, end: 0 }] : [],
  );
  const found = hiddenIn(words, keep);
  if (!found.spans.length) return { text, count: 0 };
  const cuts = new Map(words.map((w, index) => [w.id, found.cuts.get(index)]));
  // Spaces inside one hidden span go with it; every other space stays as typed. `last`: the last part joined.
  const rebuilt = rebuild(
    words.map((w) => ({ id: w.id, text: w.text, last: w.id })),
    (w) => cuts.get(w.id),
    (span) => REDACTION_LABELS[found.spans[span]!.kind],
    (first, last, joined) => ({ id: first.id, text: joined, last: last.id }),
  );
  let out = '';
  let k = 0;
  for (const word of rebuilt) {
    const at = Number(word.id);
    while (k < at) out += parts[k++];
    out += word.text;
    k = Number(word.last) + 1;
  }
  while (k < parts.length) out += parts[k++];
  return { text: out, count: found.spans.length };
}

/**
 * The named text fields of a record with what the detectors find hidden (null and absent fields
 * stay as they are), and how many spans were hidden across them: the form every write path of
 * free text uses.
 */
export function redactFields<T extends object, K extends keyof T>(
  record: T,
  keys: readonly K[],
  keep: readonly RedactionKind[] = [],
): { record: T; count: number } {
  let count = 0;
  const out = { ...record };
  for (const key of keys) {
    const value = record[key];
    if (typeof value !== 'string') continue;
    const hidden = redactText(value, keep);
    count += hidden.count;
    if (hidden.count) out[key] = hidden.text as T[K];
  }
  return count ? { record: out, count } : { record, count: 0 };
}
