import { detectSensitive, redactFields, redactText, type RedactionKind } from '../src';
import { ibanValid, isikukoodValid, luhnValid, personasKodsValid } from '../src/checksums';

/** A sentence as recognised words, one a second. */
const said = (sentence: string) =>
  sentence.split(' ').map((text, i) => ({ id: `w${i}`, text, start: i, end: i + 0.5 }));

/** What the detectors hide in a sentence: [kind, the words hidden]. */
function found(sentence: string): [RedactionKind, string][] {
  const words = said(sentence);
  return detectSensitive(words).map((s) => [
    s.kind,
    words
      .slice(s.first, s.last + 1)
      .map((w) => w.text)
      .join(' '),
  ]);
}

test('checksums: Luhn, IBAN mod-97, isikukood and personas kods accept valid numbers and refuse one changed digit', () => {
  expect(['4111111111111111', '5555555555554444', '378282246310005'].map(luhnValid)).toEqual([true, true, true]);
  expect(luhnValid('4111111111111112')).toBe(false);
  expect(
    ['EE382200221020145685', 'LV80BANK0000435195001', 'FR1420041010050500013M02606', 'GB82WEST12345698765432'].map(
      ibanValid,
    ),
  ).toEqual([true, true, true, true]);
  expect(ibanValid('EE382200221020145686')).toBe(false);
  expect(ibanValid('EE3822002210201456851')).toBe(false); // valid digits, wrong length for EE
  expect(isikukoodValid('37605030299')).toBe(true);
  expect(isikukoodValid('37605030298')).toBe(false);
  expect(isikukoodValid('37613030295')).toBe(false); // month 13
  expect(personasKodsValid('16117519997')).toBe(true);
  expect(personasKodsValid('16117519996')).toBe(false);
  expect(personasKodsValid('31021519997')).toBe(false); // 31 February
});

test('card numbers: written, digit by digit, in pairs, in French, Estonian and Latvian number words, with CVV and expiry next to them', () => {
  expect(found('my card is 4111 1111 1111 1111 and the cvv is 123 expiry 12/25')).toEqual([
    ['card_number', '4111 1111 1111 1111'],
    ['card_cvv', '123'],
    ['card_expiry', '12/25'],
  ]);
  expect(found('it is 4111111111111111.')).toEqual([['card_number', '4111111111111111.']]);
  expect(found('four one one one one one one one one one one one one one one one thanks')).toEqual([
    ['card_number', 'four one one one one one one one one one one one one one one one'],
  ]);
  expect(
    found(
      'forty-one eleven eleven eleven eleven eleven eleven eleven security code one two three expires twelve twenty-five',
    ),
  ).toEqual([
    ['card_number', 'forty-one eleven eleven eleven eleven eleven eleven eleven'],
    ['card_cvv', 'one two three'],
    ['card_expiry', 'twelve twenty-five'],
  ]);
  // Amex: 15 digits, said in groups, with uh between them.
  expect(found('three seven eight two uh eight two two four six three one zero zero zero five')).toEqual([
    ['card_number', 'three seven eight two uh eight two two four six three one zero zero zero five'],
  ]);
  expect(found('ma carte quatre un un un un un un un un un un un un un un un cryptogramme un deux trois')).toEqual([
    ['card_number', 'quatre un un un un un un un un un un un un un un un'],
    ['card_cvv', 'un deux trois'],
  ]);
  expect(
    found(
      'cinquante-cinq cinquante-cinq cinquante-cinq cinquante-cinq cinquante-cinq cinquante-cinq quarante-quatre quarante-quatre',
    ),
  ).toEqual([
    [
      'card_number',
      'cinquante-cinq cinquante-cinq cinquante-cinq cinquante-cinq cinquante-cinq cinquante-cinq quarante-quatre quarante-quatre',
    ],
  ]);
  expect(found('kaart neli üks üks üks üks üks üks üks üks üks üks üks üks üks üks üks kood üks kaks kolm')).toEqual([
    ['card_number', 'neli üks üks üks üks üks üks üks üks üks üks üks üks üks üks üks'],
    ['card_cvv', 'üks kaks kolm'],
  ]);
  expect(
    found(
      'karte četri viens viens viens viens viens viens viens viens viens viens viens viens viens viens viens derīguma divpadsmit divdesmit pieci',
    ),
  ).toEqual([
    ['card_number', 'četri viens viens viens viens viens viens viens viens viens viens viens viens viens viens viens'],
    ['card_expiry', 'divpadsmit divdesmit pieci'],
  ]);
  expect(found('4111 1111 1111 1111 valid until december 2027')).toEqual([
    ['card_number', '4111 1111 1111 1111'],
    ['card_expiry', 'december 2027'],
  ]);
});

test('card numbers that must not match: Luhn fails, wrong first digit, too short, split by a long pause; no CVV without a card', () => {
  expect(found('order 4111111111111112 please')).toEqual([]);
  expect(found('reference 1234567812345670')).toEqual([]); // Luhn-valid but no card starts with 1
  // 12 digits: no card (a phone number, by the phone rule)
  expect(found('five five five five five five five five five five five five').map(([kind]) => kind)).not.toContain(
    'card_number',
  );
  expect(found('the code is 123 and it expires 12/25')).toEqual([]);
  const paused = said('4111 1111 1111 1111');
  paused[2] = { ...paused[2]!, start: 20, end: 20.5 };
  paused[3] = { ...paused[3]!, start: 21, end: 21.5 };
  expect(detectSensitive(paused).map((s) => s.kind)).not.toContain('card_number');
});

test('IBANs: in groups, said letter by letter with number words; a wrong check digit is no IBAN', () => {
  expect(found('my iban is EE38 2200 2210 2014 5685 thanks')).toEqual([['iban', 'EE38 2200 2210 2014 5685']]);
  expect(found('E E thirty-eight 2200 2210 2014 5685')).toEqual([['iban', 'E E thirty-eight 2200 2210 2014 5685']]);
  expect(found('LV80BANK0000435195001')).toEqual([['iban', 'LV80BANK0000435195001']]);
  // A misheard IBAN's digits are still hidden, as the phone number they could be.
  expect(found('my iban is EE38 2200 2210 2014 5686 thanks')).toEqual([['phone', '2200 2210 2014']]);
});

test('national identity numbers: isikukood and dated personas kods with valid checksums only', () => {
  expect(found('isikukood 37605030299 ok, personas kods 161175-19997')).toEqual([
    ['national_id', '37605030299'],
    ['national_id', '161175-19997'],
  ]);
  expect(found('kolm seitse kuus null viis null kolm null kaks üheksa üheksa')).toEqual([
    ['national_id', 'kolm seitse kuus null viis null kolm null kaks üheksa üheksa'],
  ]);
  expect(found('isikukood 37605030298 and 161175-19996').map(([kind]) => kind)).not.toContain('national_id');
});

test('e-mail addresses: written, spoken with at and dot in the four languages; words around them and half addresses stay', () => {
  expect(found('write to john at example dot com please')).toEqual([['email', 'john at example dot com']]);
  expect(found('john.smith@example.com, and also mary underscore jones at mail dot example dot co dot uk.')).toEqual([
    ['email', 'john.smith@example.com,'],
    ['email', 'mary underscore jones at mail dot example dot co dot uk.'],
  ]);
  expect(found('jean arobase exemple point fr merci')).toEqual([['email', 'jean arobase exemple point fr']]);
  expect(found('mari ät näide punkt ee')).toEqual([['email', 'mari ät näide punkt ee']]);
  expect(found('janis et piemers punkts lv')).toEqual([['email', 'janis et piemers punkts lv']]);
  expect(found('we met at the office dot')).toEqual([]);
  expect(found('look at example com')).toEqual([]);
  expect(found('jean et marie sont là')).toEqual([]);
});

test('phone numbers: international, spoken digit by digit, with a leading 0; amounts and years are not phones', () => {
  expect(found('call me on +372 5123 4567 or plus three seven two five one two three four five six seven')).toEqual([
    ['phone', '+372 5123 4567'],
    ['phone', 'plus three seven two five one two three four five six seven'],
  ]);
  expect(found('my number is 06 12 34 56 78')).toEqual([['phone', '06 12 34 56 78']]);
  expect(found('zéro six douze trente-quatre cinquante-six soixante-dix-huit')).toEqual([
    ['phone', 'zéro six douze trente-quatre cinquante-six soixante-dix-huit'],
  ]);
  expect(found('it costs 2500000 euros in 2024')).toEqual([]);
  expect(found('twenty one people came')).toEqual([]);
});

test('typed forms are normalised first: a number glued to a word or sign, Unicode dashes and full-width digits are hidden whole, and only the number', () => {
  const hidden = (text: string) => redactText(text).text;
  // Glued to a word or a sign: the word and the sentence's punctuation stay beside the label (a word
  // that is only the number and its punctuation becomes the label, as recognised words always have).
  expect(hidden('card:4111111111111111,')).toBe('card:[card number],');
  expect(hidden('card#4111111111111111')).toBe('card#[card number]');
  expect(hidden('card4111111111111111 thanks')).toBe('card[card number] thanks');
  // Spaced and glued: no group of it is kept (it once read as "card:4111 [phone number]").
  expect(hidden('card:4111 1111 1111 1111')).toBe('card:[card number]');
  // Every Unicode dash and the minus sign read as '-'.
  for (const dash of ['\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212'])
    expect(hidden(`pay ${['4111', '1111', '1111', '1111'].join(dash)}.`)).toBe('pay [card number]');
  // Full-width digits and dashes (NFKC).
  expect(hidden('４１１１１１１１１１１１１１１１')).toBe('[card number]');
  expect(hidden('card:４１１１－１１１１－１１１１－１１１１')).toBe('card:[card number]');
  // The other detectors read the same tokens.
  expect(hidden('iban:EE382200221020145685')).toBe('iban:[IBAN]');
  expect(hidden('tel:+37251234567')).toBe('tel:[phone number]');
  expect(hidden('mail:john.smith2@example.com.')).toBe('mail:[e-mail].');
  expect(hidden('isikukood:37605030299')).toBe('isikukood:[national ID]');
  expect(hidden('4111111111111111exp12/25')).toBe('[card number]exp[card expiry]');
  expect(redactText('card:4111 1111 1111 1111 and tel:+37251234567').count).toBe(2);
});

test('typed forms that must not match: amounts, versions, references and words glued to short numbers stay as typed', () => {
  for (const text of [
    '2,500,000 euros',
    'order#12345 v2.0.1 room 12b',
    'covid19 mp3 10am 4th',
    'ref:20240115',
    'card:4111111111111112,',
    'card#1234567812345670',
    'twenty-one people in 2024.',
    "d'expiration 12/25",
    'jean et marie',
  ])
    expect(redactText(text)).toEqual({ text, count: 0 });
});

test('fields of a record: each named text field redacted, the count summed, null fields and others untouched', () => {
  const client = { name: 'Dana', notes: 'card:4111111111111111,\nnext line', phone: null, id: '4111111111111111' };
  const { record, count } = redactFields(client, ['name', 'notes', 'phone']);
  expect(count).toBe(1);
  expect(record).toEqual({ ...client, notes: 'card:[card number],\nnext line' });
  const plain = { name: 'Dana', notes: 'call back in 2024' };
  expect(redactFields(plain, ['name', 'notes'])).toEqual({ record: plain, count: 0 });
});
