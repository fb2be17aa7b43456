import type { RedactionWord } from './numbers';

/**
 * Words as the detectors read them. Typed text hides numbers in forms a recogniser never writes:
 * full-width digits, Unicode dashes between groups, a number glued to a word or sign
 * ("card:4111…", "card#4111…"). Each word is normalised (NFKC, every dash and minus to '-') and cut
 * where digits meet letters or signs; every token remembers which characters of which original word
 * it came from, so that a hidden span covers the whole original number and nothing else.
 */

/** Hyphen, non-breaking hyphen, figure dash, en and em dash, horizontal bar, minus: each reads as '-'. */
const DASHES = /[\u2010-\u2015\u2212]/g;
/** A written number: digits with what people write inside one (WRITTEN in numbers.ts, and the thousands comma). */
const NUMBER = /[+(]?\d(?:[\d\s\-/.,()]*\d)?\)?/g;
/** What bare() strips around a word: a number keeps it, as a whole word did ("1234," goes on to the next group). */
const BEFORE = /^[\s"'“”‘’«»([{,;:!?.]+$/;
const AFTER = /^[\s"'“”‘’«»)\]},;:!?.]+$/;
/** Signs that glue a label to what follows ("iban:EE38…", "mail:john@…"): the next word starts after them. */
const GLUE = /[:#=;|*~<>]/;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
/** Punctuation around a number that is the sentence's, not the number's: it stays beside the label. */
const LEADING_PUNCTUATION = /^["'“”‘’«»[{]+/;
const TRAILING_PUNCTUATION = /["'“”‘’«»\]},;:!?.…]+$/;

/** A token: its normalised text, and the original word and characters (`from`…`to`, exclusive) it came from. */
export interface Token {
  word: number;
  from: number;
  to: number;
  text: string;
}

/** Parts of normalised characters: each written number alone, the text between cut after glue signs. */
function partsOf(chars: readonly { c: string }[]): [number, number][] {
  // One UTF-16 unit per character, so offsets in `text` are indexes of `chars` (a character outside
  // the BMP, an emoji, is neither digit nor sign: it reads as U+FFFD here).
  const text = chars.map((ch) => (ch.c.length === 1 ? ch.c : '\uFFFD')).join('');
  const parts: { from: number; to: number; number: boolean }[] = [];
  let at = 0;
  const between = (to: number) => {
    let from = at;
    for (let i = at + 1; i < to; i++) {
      if (GLUE.test(text[i - 1]!) && !GLUE.test(text[i]!) && !/\s/.test(text[i]!)) {
        parts.push({ from, to: i, number: false });
        from = i;
      }
    }
    if (to > from) parts.push({ from, to, number: false });
  };
  for (const match of text.matchAll(NUMBER)) {
    between(match.index);
    parts.push({ from: match.index, to: match.index + match[0].length, number: true });
    at = match.index + match[0].length;
  }
  between(text.length);
  // Punctuation alone at either end of the word goes with the number next to it.
  if (parts.length > 1 && parts[1]!.number && BEFORE.test(text.slice(parts[0]!.from, parts[0]!.to)))
    parts.splice(0, 2, { from: 0, to: parts[1]!.to, number: true });
  const last = parts.length - 1;
  if (parts.length > 1 && parts[last - 1]!.number && AFTER.test(text.slice(parts[last]!.from, parts[last]!.to)))
    parts.splice(last - 1, 2, { from: parts[last - 1]!.from, to: text.length, number: true });
  return parts.map((p) => [p.from, p.to]);
}

/**
 * One word's tokens. In an e-mail address only glue signs cut ("mail:john2@example.com"): its
 * digits and dots belong to it.
 */
function tokensOfWord(text: string, word: number): Token[] {
  // Each code point normalised alone, so every output character knows its source characters.
  const chars: { c: string; from: number; to: number }[] = [];
  let at = 0;
  // Printable ASCII is its own NFKC form: most words skip normalising each character.
  if (PRINTABLE_ASCII.test(text)) for (const c of text) chars.push({ c, from: at, to: ++at });
  else
    for (const point of text) {
      for (const c of point.normalize('NFKC').replace(DASHES, '-')) chars.push({ c, from: at, to: at + point.length });
      at += point.length;
    }
  if (!chars.length) return [{ word, from: 0, to: text.length, text }];
  const parts = chars.some((ch) => ch.c === '@') ? glued(chars) : partsOf(chars);
  return parts.map(([from, to]) => {
    const part = chars.slice(from, to);
    return { word, from: part[0]!.from, to: part[part.length - 1]!.to, text: part.map((ch) => ch.c).join('') };
  });
}

/** An e-mail address's word: cut only after a glue sign. */
function glued(chars: readonly { c: string }[]): [number, number][] {
  const parts: [number, number][] = [];
  let from = 0;
  for (let i = 1; i < chars.length; i++) {
    if (GLUE.test(chars[i - 1]!.c) && !GLUE.test(chars[i]!.c)) {
      parts.push([from, i]);
      from = i;
    }
  }
  parts.push([from, chars.length]);
  return parts;
}

/** The tokens of a word list, in order, and the words the detectors read (one per token). */
export function tokenize(words: readonly RedactionWord[]): { tokens: Token[]; words: RedactionWord[] } {
  const tokens = words.flatMap((w, index) => tokensOfWord(w.text, index));
  return {
    tokens,
    words: tokens.map((t, k) => ({
      id: `${words[t.word]!.id}#${k}`,
      text: t.text,
      start: words[t.word]!.start,
      end: words[t.word]!.end,
    })),
  };
}

/** The characters of one original word a span hides. */
export interface Cut<S> {
  from: number;
  to: number;
  span: S;
}

/**
 * The characters a span of tokens (`first`…`last`) hides in each original word: from its first
 * token's first character to its last token's last, less the sentence's punctuation at either end
 * when the word keeps other text; a word that keeps nothing else is hidden whole.
 */
export function cutsOf<S>(
  words: readonly { text: string }[],
  tokens: readonly Token[],
  first: number,
  last: number,
  span: S,
): { word: number; cut: Cut<S> }[] {
  const a = tokens[first]!;
  const b = tokens[last]!;
  const out: { word: number; cut: Cut<S> }[] = [];
  for (let w = a.word; w <= b.word; w++) {
    const text = words[w]!.text;
    let from = w === a.word ? a.from : 0;
    let to = w === b.word ? b.to : text.length;
    if (w === a.word) from += LEADING_PUNCTUATION.exec(text.slice(from, to))?.[0].length ?? 0;
    if (w === b.word) to -= TRAILING_PUNCTUATION.exec(text.slice(from, to))?.[0].length ?? 0;
    // A word that is only the number and its punctuation becomes the label, as recognised words
    // always have; the punctuation stays only beside a word glued to the number ("card:[card number],").
    const whole = !/[\p{L}\p{N}]/u.test(text.slice(0, from) + text.slice(to));
    out.push({ word: w, cut: whole ? { from: 0, to: text.length, span } : { from, to, span } });
  }
  return out;
}

/**
 * Rebuilds words with their cuts replaced by labels. Words joined by one span become one word
 * (the first word's id and start, the last word's end); its text is what each word keeps outside
 * the cuts, with one label per span. `merge` makes that word from the words it joins.
 */
export function rebuild<W extends { text: string }, S>(
  words: readonly W[],
  cutsFor: (word: W) => readonly Cut<S>[] | undefined,
  label: (span: S) => string,
  merge: (first: W, last: W, text: string) => W,
): W[] {
  const out: W[] = [];
  let group: { first: W; last: W; text: string; open: S | undefined } | null = null;
  const close = () => {
    if (group) out.push(merge(group.first, group.last, group.text));
    group = null;
  };
  for (const word of words) {
    const cuts = [...(cutsFor(word) ?? [])].sort((x, y) => x.from - y.from);
    // A word whose first cut continues the open span joins the word being built.
    const joins = group !== null && cuts[0]?.from === 0 && cuts[0].span === (group as { open: S | undefined }).open;
    if (!joins) close();
    if (!cuts.length) {
      out.push(word);
      continue;
    }
    const current: { first: W; last: W; text: string; open: S | undefined } = group ?? {
      first: word,
      last: word,
      text: '',
      open: undefined,
    };
    current.last = word;
    let at = 0;
    for (const cut of cuts) {
      if (cut.from > at) current.open = undefined;
      current.text += word.text.slice(at, cut.from);
      if (current.open !== cut.span) current.text += label(cut.span);
      current.open = cut.span;
      at = cut.to;
    }
    if (at < word.text.length) {
      current.text += word.text.slice(at);
      current.open = undefined;
    }
    group = current;
  }
  close();
  return out;
}
