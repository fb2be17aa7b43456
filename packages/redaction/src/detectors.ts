import { ibanValid, IBAN_LENGTHS, isikukoodValid, luhnValid, personasKodsValid } from './checksums';
import { bare, numberRuns, type Piece, type RedactionWord, type Run } from './numbers';

export const REDACTION_KINDS = [
  'card_number',
  'card_cvv',
  'card_expiry',
  'iban',
  'national_id',
  'email',
  'phone',
] as const;
export type RedactionKind = (typeof REDACTION_KINDS)[number];

/** Words to hide: indexes `first`…`last` (inclusive) of the word list given to the detectors. */
export interface IndexSpan {
  kind: RedactionKind;
  first: number;
  last: number;
}

/** Which word indexes earlier detectors already took: later ones do not claim them twice. */
class Claims {
  private readonly taken = new Set<number>();
  readonly spans: IndexSpan[] = [];
  free(first: number, last: number): boolean {
    for (let i = first; i <= last; i++) if (this.taken.has(i)) return false;
    return true;
  }
  claim(kind: RedactionKind, first: number, last: number): void {
    for (let i = first; i <= last; i++) this.taken.add(i);
    this.spans.push({ kind, first, last });
  }
}

const digitsOf = (pieces: readonly Piece[]) => pieces.map((p) => p.digits).join('');

/** A card's number starts with its network's major industry identifier: 2–6 (Mastercard 2-series, Amex, Visa, Mastercard, Discover/UnionPay/Maestro). */
const CARD_NUMBER = /^[2-6]\d{12,18}$/;
/** Most cards have 16 digits: when a longer reading also passes Luhn (a CVV said right after), 16 wins. */
const CARD_LENGTH_PREFERENCE = [16, 15, 19, 18, 17, 14, 13];

/**
 * Card numbers: 13–19 digits at number boundaries of one run, Luhn-valid, starting 2–6. From each
 * start the preferred length wins; the scan goes on after it.
 */
function detectCards(runs: readonly Run[], claims: Claims): IndexSpan[] {
  const found: IndexSpan[] = [];
  for (const run of runs) {
    let i = 0;
    while (i < run.length) {
      if (!claims.free(run[i]!.first, run[i]!.last)) {
        i++;
        continue;
      }
      const candidates = new Map<number, number>();
      let digits = '';
      for (let j = i; j < run.length && digits.length < 19; j++) {
        if (!claims.free(run[j]!.first, run[j]!.last)) break;
        digits += run[j]!.digits;
        if (CARD_NUMBER.test(digits) && luhnValid(digits)) candidates.set(digits.length, j);
      }
      const length = CARD_LENGTH_PREFERENCE.find((n) => candidates.has(n));
      if (length === undefined) {
        i++;
        continue;
      }
      const end = candidates.get(length)!;
      const span: IndexSpan = { kind: 'card_number', first: run[i]!.first, last: run[end]!.last };
      claims.claim(span.kind, span.first, span.last);
      found.push(span);
      i = end + 1;
    }
  }
  return found;
}

const CVV_WORDS = new Set([
  'cvv',
  'cvc',
  'cvv2',
  'cvc2',
  'cryptogramme',
  'turvakood',
  'kontrollkood',
  'drošības',
  'kods',
  'code',
  'kood',
  'security',
  'verification',
]);
const EXPIRY_WORDS = new Set([
  'expiry',
  'expires',
  'expiration',
  'exp',
  'expiring',
  'valid',
  'expire',
  'expiration',
  "d'expiration",
  'validité',
  'kehtib',
  'kehtivus',
  'aegub',
  'derīguma',
  'derīga',
  'termiņš',
]);
const MONTHS = new Map<string, number>(
  [
    ['january', 'janvier', 'jaanuar', 'janvāris'],
    ['february', 'février', 'veebruar', 'februāris'],
    ['march', 'mars', 'märts', 'marts'],
    ['april', 'avril', 'aprill', 'aprīlis'],
    ['may', 'mai', 'mai', 'maijs'],
    ['june', 'juin', 'juuni', 'jūnijs'],
    ['july', 'juillet', 'juuli', 'jūlijs'],
    ['august', 'août', 'august', 'augusts'],
    ['september', 'septembre', 'september', 'septembris'],
    ['october', 'octobre', 'oktoober', 'oktobris'],
    ['november', 'novembre', 'november', 'novembris'],
    ['december', 'décembre', 'detsember', 'decembris'],
  ].flatMap((names, month) => names.map((name) => [name, month + 1] as const)),
);

/** Words that sit next to a card number close enough to belong to it (its CVV, its expiry). */
const CARD_CONTEXT_WORDS = 20;

const isMonth = (p: Piece) => p.digits.length <= 2 && Number(p.digits) >= 1 && Number(p.digits) <= 12;
const isYear = (p: Piece) => p.digits.length === 2 || /^20\d\d$/.test(p.digits);

/**
 * Expiry and CVV near a card number (within 20 words before or after it, same speaker): a month
 * (1–12, or its name) then a year (two digits or 20YY), or one written "MM/YY" or "MM/YYYY", is
 * the expiry; a number of 3 or 4 digits (said as one or several numbers) is the CVV. A CVV word
 * ("CVV", "security code", "turvakood", "drošības kods"…) just before makes it the CVV even when
 * it could be a date; an expiry word the expiry.
 */
function detectCardContext(
  words: readonly RedactionWord[],
  runs: readonly Run[],
  cards: readonly IndexSpan[],
  claims: Claims,
): void {
  const near = (first: number, last: number) =>
    cards.some((c) => first <= c.last + CARD_CONTEXT_WORDS && last >= c.first - CARD_CONTEXT_WORDS);
  const saidBefore = (index: number, set: Set<string>) => {
    for (let k = index - 1; k >= Math.max(0, index - 3); k--) if (set.has(bare(words[k]!.text))) return true;
    return false;
  };
  if (!cards.length) return;
  const runAt = new Map(runs.map((r) => [r[0]!.first, r]));
  // A month said by name, then the year.
  words.forEach((word, index) => {
    const month = MONTHS.get(bare(word.text));
    const next = runAt.get(index + 1);
    if (month && next && isYear(next[0]!) && near(index, next[0]!.last) && claims.free(index, next[0]!.last))
      claims.claim('card_expiry', index, next[0]!.last);
  });
  for (const run of runs) {
    let i = 0;
    while (i < run.length) {
      const piece = run[i]!;
      if (!near(piece.first, piece.last) || !claims.free(piece.first, piece.last)) {
        i++;
        continue;
      }
      const cvvSaid = saidBefore(run[i]!.first, CVV_WORDS) && !saidBefore(run[i]!.first, EXPIRY_WORDS);
      const written = piece.written && /^(0?[1-9]|1[0-2])[/.-](\d{2}|20\d{2})$/.test(piece.written);
      const pair =
        run[i + 1] && isMonth(piece) && isYear(run[i + 1]!) && claims.free(run[i + 1]!.first, run[i + 1]!.last);
      if (!cvvSaid && (written || pair)) {
        const last = written ? piece.last : run[i + 1]!.last;
        claims.claim('card_expiry', piece.first, last);
        i += written ? 1 : 2;
        continue;
      }
      // The longest reading of 3–4 digits from here.
      let end = -1;
      let digits = '';
      for (let j = i; j < run.length && claims.free(run[j]!.first, run[j]!.last); j++) {
        digits += run[j]!.digits;
        if (digits.length > 4) break;
        if (digits.length >= 3) end = j;
      }
      if (end >= 0) {
        claims.claim('card_cvv', piece.first, run[end]!.last);
        i = end + 1;
      } else {
        i++;
      }
    }
  }
}

/**
 * IBANs: a country code and its two check digits, then the account, written in groups ("EE38 2200
 * 2210 2014 5685") or said letter by letter and number by number, joined across words until the
 * country's IBAN length; accepted when the ISO 13616 mod-97 check gives 1.
 */
function detectIbans(words: readonly RedactionWord[], runs: readonly Run[], claims: Claims): void {
  // Each word as IBAN characters: letters and digits only, number words as their digits.
  const chunks = words.map((w) => {
    const text = bare(w.text).toUpperCase().replace(/[\s-]/g, '');
    return /^[A-Z0-9]+$/.test(text) ? text : null;
  });
  const spoken = new Map<number, { digits: string; last: number }>();
  for (const run of runs) for (const p of run) if (!p.written) spoken.set(p.first, { digits: p.digits, last: p.last });
  for (let i = 0; i < words.length; i++) {
    let text = '';
    let j = i;
    while (j < words.length && text.length < 34) {
      const said = spoken.get(j);
      const chunk = said?.digits ?? chunks[j];
      if (chunk === null || chunk === undefined) break;
      text += chunk;
      j = said ? said.last + 1 : j + 1;
      const length = IBAN_LENGTHS[text.slice(0, 2)];
      if (length === undefined && text.length >= 2) break;
      if (text.length === length) {
        if (ibanValid(text) && claims.free(i, j - 1)) {
          claims.claim('iban', i, j - 1);
          i = j - 1;
        }
        break;
      }
    }
  }
}

/** National identity numbers with a checksum: the Estonian isikukood and the dated Latvian personas kods (11 digits at number boundaries). */
function detectNationalIds(runs: readonly Run[], claims: Claims): void {
  for (const run of runs) {
    for (let i = 0; i < run.length; i++) {
      let digits = '';
      for (let j = i; j < run.length && digits.length < 11; j++) {
        digits += run[j]!.digits;
        if (
          digits.length === 11 &&
          (isikukoodValid(digits) || personasKodsValid(digits)) &&
          claims.free(run[i]!.first, run[j]!.last)
        ) {
          claims.claim('national_id', run[i]!.first, run[j]!.last);
          i = j;
          break;
        }
      }
    }
  }
}

const AT_WORDS = new Set(['at', 'arobase', 'ät', 'et']);
const JOIN_WORDS: ReadonlyMap<string, string> = new Map([
  ['dot', '.'],
  ['point', '.'],
  ['punkt', '.'],
  ['punkts', '.'],
  ['underscore', '_'],
  ['alakriips', '_'],
  ['apakšsvītra', '_'],
  ['dash', '-'],
  ['hyphen', '-'],
  ['tiret', '-'],
  ['sidekriips', '-'],
  ['defise', '-'],
]);
// Letters of any script: names and domains are said in Estonian and Latvian too ("näide").
const EMAIL = /^[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(\.[\p{L}\p{N}-]+)*\.\p{L}{2,6}$/u;
const LABEL = /^[\p{L}\p{N}][\p{L}\p{N}._+-]*$/u;
const DOMAIN_PART = /^[\p{L}\p{N}.-]+$/u;
/** At most this many words on either side of the @ make one address. */
const EMAIL_WORDS = 12;

/**
 * E-mail addresses, written ("john.smith@example.com", also cut into words by the recogniser) or
 * spoken: a name, "at" (arobase, ät, et), then labels joined by "dot" (point, punkt, punkts) ending
 * in a top-level domain of 2–6 letters. "underscore" and "dash" (and their translations) join the
 * parts too. The longest reading that is an address wins.
 */
function detectEmails(words: readonly RedactionWord[], claims: Claims): void {
  const forms = words.map((w) => {
    const text = bare(w.text);
    return AT_WORDS.has(text) ? '@' : (JOIN_WORDS.get(text) ?? text);
  });
  forms.forEach((form, k) => {
    if (!form.includes('@')) return;
    // Left: the name, unless the word carries it ("john@").
    let first = k;
    if (form.startsWith('@')) {
      if (!LABEL.test(forms[k - 1] ?? '')) return;
      first = k - 1;
      while (
        first >= 2 &&
        k - first < EMAIL_WORDS &&
        /^[._-]$/.test(forms[first - 1]!) &&
        LABEL.test(forms[first - 2]!)
      )
        first -= 2;
    }
    // Right: labels and dots, the longest that ends an address.
    let text = forms.slice(first, k + 1).join('');
    let last = -1;
    for (let j = k; j < Math.min(words.length, k + EMAIL_WORDS); j++) {
      if (j > k) {
        // Parts alternate with dots: two names in a row ("example.com and") end the address.
        if (!DOMAIN_PART.test(forms[j]!) || !(/[.@-]$/.test(forms[j - 1]!) || /^[.-]/.test(forms[j]!))) break;
        text += forms[j];
      }
      if (EMAIL.test(text)) last = j;
    }
    if (last >= 0 && claims.free(first, last)) claims.claim('email', first, last);
  });
}

/** Phone numbers have at most 15 digits (E.164) and, here, at least 7. */
const PHONE_DIGITS = { min: 7, max: 15 };

/**
 * Phone numbers: what is left of a number run after the detectors above, 7–15 digits, that looks
 * dialled rather than counted: international (+, "plus", 00), or said in several numbers, or
 * written with separators or a leading 0. A longer run is cut into numbers of at most 15 digits.
 */
function detectPhones(runs: readonly Run[], claims: Claims): void {
  for (const run of runs) {
    let group: Piece[] = [];
    const flush = () => {
      const digits = digitsOf(group);
      const first = group[0];
      const dialled =
        first && (first.plus || digits.startsWith('0') || group.length > 1 || /[^\d]/.test(first.written ?? ''));
      if (first && dialled && digits.length >= PHONE_DIGITS.min && digits.length <= PHONE_DIGITS.max)
        claims.claim('phone', first.first, group[group.length - 1]!.last);
      group = [];
    };
    for (const piece of run) {
      if (!claims.free(piece.first, piece.last)) {
        flush();
        continue;
      }
      if (digitsOf(group).length + piece.digits.length > PHONE_DIGITS.max) flush();
      group.push(piece);
    }
    flush();
  }
}

/**
 * Every detector over one speaker's words in time order, most specific first (a card number is
 * not also a phone number). Returns the spans to hide, by word index, in order.
 */
export function detectSensitive(words: readonly RedactionWord[]): IndexSpan[] {
  const claims = new Claims();
  const runs = numberRuns(words);
  // An IBAN's account digits could pass for a card number; its country code and mod-97 make it the surer reading.
  detectIbans(words, runs, claims);
  const cards = detectCards(runs, claims);
  detectCardContext(words, runs, cards, claims);
  detectNationalIds(runs, claims);
  detectEmails(words, claims);
  detectPhones(runs, claims);
  return claims.spans.sort((a, b) => a.first - b.first);
}
