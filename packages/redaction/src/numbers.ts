/**
 * Number words of the four console languages (English, French, Estonian, Latvian) read as digit
 * strings, the way people say card and account numbers: digit by digit ("four one one one"), in
 * pairs ("forty-one eleven") or mixed with written digits. A value is its digits as said: "oh
 * four" is "04", "twenty one" is "21", "quatre-vingt-dix-sept" is "97".
 */

export interface RedactionWord {
  id: string;
  text: string;
  start: number;
  end: number;
}

type Item =
  | { kind: 'digit'; value: number } // 0–9
  | { kind: 'teen'; value: number } // 10–19
  | { kind: 'tens'; value: number } // 20–90
  | { kind: 'repeat'; times: number } // "double four" → 44
  | { kind: 'and' }; // "vingt et un"

const lexicon = new Map<string, Item>();
const add = (kind: 'digit' | 'teen' | 'tens', words: Record<string, number>) => {
  for (const [word, value] of Object.entries(words)) lexicon.set(word, { kind, value });
};

add('digit', {
  zero: 0,
  oh: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  zéro: 0,
  un: 1,
  une: 1,
  deux: 2,
  trois: 3,
  quatre: 4,
  cinq: 5,
  sept: 7,
  huit: 8,
  neuf: 9,
  null: 0,
  üks: 1,
  kaks: 2,
  kolm: 3,
  neli: 4,
  viis: 5,
  kuus: 6,
  seitse: 7,
  kaheksa: 8,
  üheksa: 9,
  nulle: 0,
  viens: 1,
  viena: 1,
  divi: 2,
  trīs: 3,
  četri: 4,
  pieci: 5,
  seši: 6,
  septiņi: 7,
  astoņi: 8,
  deviņi: 9,
});
add('teen', {
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  dix: 10,
  onze: 11,
  douze: 12,
  treize: 13,
  quatorze: 14,
  quinze: 15,
  seize: 16,
  kümme: 10,
  üksteist: 11,
  kaksteist: 12,
  kolmteist: 13,
  neliteist: 14,
  viisteist: 15,
  kuusteist: 16,
  seitseteist: 17,
  kaheksateist: 18,
  üheksateist: 19,
  desmit: 10,
  vienpadsmit: 11,
  divpadsmit: 12,
  trīspadsmit: 13,
  četrpadsmit: 14,
  piecpadsmit: 15,
  sešpadsmit: 16,
  septiņpadsmit: 17,
  astoņpadsmit: 18,
  deviņpadsmit: 19,
});
add('tens', {
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
  vingt: 20,
  vingts: 20,
  trente: 30,
  quarante: 40,
  cinquante: 50,
  soixante: 60,
  septante: 70,
  huitante: 80,
  octante: 80,
  nonante: 90,
  kakskümmend: 20,
  kolmkümmend: 30,
  nelikümmend: 40,
  viiskümmend: 50,
  kuuskümmend: 60,
  seitsekümmend: 70,
  kaheksakümmend: 80,
  üheksakümmend: 90,
  divdesmit: 20,
  trīsdesmit: 30,
  četrdesmit: 40,
  piecdesmit: 50,
  sešdesmit: 60,
  septiņdesmit: 70,
  astoņdesmit: 80,
  deviņdesmit: 90,
});
lexicon.set('double', { kind: 'repeat', times: 2 });
lexicon.set('triple', { kind: 'repeat', times: 3 });
lexicon.set('et', { kind: 'and' });

/** Words said inside a number without being part of it: hesitations and spoken separators. */
const FILLERS = new Set(['uh', 'um', 'er', 'erm', 'hmm', 'euh', 'dash', 'tiret', 'ee', 'öö', 'nu']);

/** A word's text without the punctuation recognisers attach to it, lower-cased. */
export const bare = (text: string) =>
  text
    .toLowerCase()
    .normalize('NFC')
    .replace(/^[\s"'“”‘’«»([{,;:!?.]+|[\s"'“”‘’«»)\]},;:!?.]+$/g, '');

/** Written digits, with the separators people write inside numbers (spaces, -, /, ., parentheses, a leading +). */
const WRITTEN = /^\+?\(?\d[\d\-/.() ]*$/;

/** One number said: its digits and the words (indexes into the word list) it came from. */
export interface Piece {
  digits: string;
  first: number;
  last: number;
  /** Written with + or said with "plus" before it: an international phone number. */
  plus: boolean;
  /** The word as written, when it was one written token ("12/25", "(0)6 12"). */
  written?: string;
}

/** A run of pieces said one after another (only fillers between them, no long pause). */
export type Run = Piece[];

/** A pause longer than this ends a number: two numbers said apart are not one. */
const MAX_GAP_SECONDS = 6;

const PLUS = new Set(['plus', 'pluss']);

/** Number items of one word (hyphenated number words are split: "vingt-et-un", "twenty-one"). */
function itemsOf(word: string): Item[] | null {
  const items = word
    .split('-')
    .filter(Boolean)
    .map((p) => lexicon.get(p));
  if (!items.length || !items.every(Boolean)) return null;
  // French 17–19 are written "dix-sept", "dix-huit", "dix-neuf".
  return (items as Item[]).flatMap((item, i, all) => {
    const before = all[i - 1];
    if (item.kind === 'digit' && item.value >= 7 && before?.kind === 'teen' && before.value === 10) return [];
    const after = all[i + 1];
    if (item.kind === 'teen' && item.value === 10 && after?.kind === 'digit' && after.value >= 7)
      return [{ kind: 'teen', value: 10 + after.value }];
    return [item];
  });
}

/** Collapses number items into said values: tens + digit, "soixante-dix", "quatre-vingt(s)", "vingt et un", "double four". */
function combine(items: { item: Item; index: number }[]): Piece[] {
  const pieces: Piece[] = [];
  let i = 0;
  const at = (k: number) => items[k]?.item;
  while (i < items.length) {
    const first = items[i]!.index;
    let item = at(i)!;
    let used = 1;
    // French 80: "quatre vingt(s)".
    if (
      item.kind === 'digit' &&
      item.value === 4 &&
      at(i + 1)?.kind === 'tens' &&
      (at(i + 1) as { value: number }).value === 20
    ) {
      item = { kind: 'tens', value: 80 };
      used = 2;
    }
    if (item.kind === 'tens') {
      let value = item.value;
      let next = at(i + used);
      let skip = 0;
      if (next?.kind === 'and') {
        next = at(i + used + 1);
        skip = 1;
      }
      if (next?.kind === 'digit' && next.value > 0) {
        value += next.value;
        used += 1 + skip;
      } else if (next?.kind === 'teen' && (item.value === 60 || item.value === 80)) {
        value += next.value;
        used += 1 + skip;
      }
      pieces.push({ digits: String(value), first, last: items[i + used - 1]!.index, plus: false });
    } else if (item.kind === 'digit' || item.kind === 'teen') {
      pieces.push({ digits: String(item.value), first, last: items[i]!.index, plus: false });
    } else if (item.kind === 'repeat' && at(i + 1)?.kind === 'digit') {
      pieces.push({
        digits: String((at(i + 1) as { value: number }).value).repeat(item.times),
        first,
        last: items[i + 1]!.index,
        plus: false,
      });
      used = 2;
    }
    i += used;
  }
  return pieces;
}

/**
 * The runs of numbers in a word list (one speaker's words in time order): written digits and
 * number words, with fillers allowed between them; anything else, or a long pause, ends a run.
 */
export function numberRuns(words: readonly RedactionWord[]): Run[] {
  const runs: Run[] = [];
  let pending: { item: Item; index: number }[] = [];
  let run: Run = [];
  // The index of a "plus" said just before the run: the run is an international number.
  let plusAt: number | null = null;
  let lastEnd = -Infinity;
  const flushItems = () => {
    run.push(...combine(pending));
    pending = [];
  };
  const close = () => {
    flushItems();
    if (run.length && plusAt !== null && run[0]!.first === plusAt + 1)
      run[0] = { ...run[0]!, first: plusAt, plus: true };
    if (run.length) runs.push(run);
    run = [];
    plusAt = null;
  };
  words.forEach((word, index) => {
    const text = bare(word.text);
    if (word.start - lastEnd > MAX_GAP_SECONDS) close();
    lastEnd = word.end;
    if (WRITTEN.test(text)) {
      flushItems();
      run.push({
        digits: text.replace(/\D/g, ''),
        first: index,
        last: index,
        plus: text.startsWith('+'),
        written: text,
      });
      return;
    }
    const items = itemsOf(text);
    if (items) {
      for (const item of items) pending.push({ item, index });
      return;
    }
    if (FILLERS.has(text) && (pending.length || run.length)) return;
    close();
    if (PLUS.has(text)) plusAt = index;
  });
  close();
  return runs;
}
