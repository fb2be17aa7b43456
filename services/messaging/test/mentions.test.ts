import { mentionedIn } from '../src/services/mentions';

const people = [
  { userId: 'anna-t', firstName: 'Anna', lastName: 'Tamm' },
  { userId: 'anna-k', firstName: 'Anna', lastName: 'Kask' },
  { userId: 'jaan', firstName: 'Jaan', lastName: 'Õun' },
  { userId: 'ann', firstName: 'Ann', lastName: 'Lee' },
];
const ids = (text: string) => [...mentionedIn(text, people)].sort();

test('a full name names anyone; a first name only the one person who has it', () => {
  expect(ids('Ask @anna tamm and @Jaan')).toEqual(['anna-t', 'jaan']);
  // Two Annas: a first name alone names nobody.
  expect(ids('Ask @Anna about it')).toEqual([]);
  expect(ids('Line one\n@Anna  Kask, please')).toEqual(['anna-k']);
});

test('a mention is a whole word after @: not a longer name, not an e-mail address, not a name without @', () => {
  expect(ids('@Annabel said so')).toEqual([]);
  expect(ids('@Ann.')).toEqual(['ann']);
  expect(ids('write to ann@example.com or jaan@x.test')).toEqual([]);
  expect(ids('Jaan Õun will call')).toEqual([]);
  expect(ids('(@Jaan Õun)')).toEqual(['jaan']);
});
