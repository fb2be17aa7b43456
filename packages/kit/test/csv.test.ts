import { csvCell, csvLine } from '../src/csv';

describe('CSV cells for spreadsheets', () => {
  test('text a spreadsheet would run as a formula gets a leading quote mark', () => {
    expect(['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx'].map(csvCell)).toEqual([
      "'=1+1",
      "'+1",
      "'-1",
      "'@SUM(A1)",
      "'\tx",
      '"\'\rx"',
    ]);
    expect(csvCell('a=b')).toBe('a=b');
  });

  test('numbers stay numbers, negative ones included; nothing is an empty cell', () => {
    expect([-5, 0.0125, 1200].map(csvCell)).toEqual(['-5', '0.0125', '1200']);
    expect([null, undefined].map(csvCell)).toEqual(['', '']);
  });

  test('commas, quotes and line breaks are quoted as RFC 4180 says, after the formula guard', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('=HYPERLINK("x","y")')).toBe('"\'=HYPERLINK(""x"",""y"")"');
    expect(csvLine(['a', 1, null, 'b\nc'])).toBe('a,1,,"b\nc"\r\n');
  });
});
