import { inPages, jsonDocument, RawJson } from '../src/json-document';

async function text(value: unknown, space?: string): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of jsonDocument(value, space)) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

async function* listOf<T>(items: T[]): AsyncGenerator<T> {
  for (const item of items) yield await Promise.resolve(item);
}

const sample = {
  service: 'x',
  when: new Date('2026-01-02T03:04:05.678Z'),
  empty: {},
  none: [],
  gone: undefined,
  nested: { list: [1, 'two', null, { deep: [true] }], text: 'a "quoted"\nline' },
  holes: [undefined, 1],
};

describe('a JSON document written as it is read', () => {
  test('plain values are written byte for byte as JSON.stringify writes them, indented or not', async () => {
    expect(await text(sample)).toBe(JSON.stringify(sample, null, 2));
    expect(await text(sample, '')).toBe(JSON.stringify(sample));
    expect(await text([])).toBe('[]');
    expect(await text('é')).toBe('"é"');
  });

  test('an async iterable is a list written as it comes, at any depth; RawJson text is written as it is', async () => {
    const rows = [{ id: 1 }, { id: 2, inner: [{ at: 1 }] }];
    const streamed = {
      ...sample,
      rows: listOf(rows.map((row) => ({ ...row, inner: listOf(row.inner ?? []) }))),
      raw: new RawJson('[{"a": 1}]'),
      noRows: listOf([]),
    };
    const written = await text(streamed);
    expect(JSON.parse(written)).toEqual({
      ...JSON.parse(JSON.stringify(sample)),
      rows: [
        { id: 1, inner: [] },
        { id: 2, inner: [{ at: 1 }] },
      ],
      raw: [{ a: 1 }],
      noRows: [],
    });
    // Laid out as JSON.stringify lays out the same values.
    const same = { ...sample, rows: rows.map((row) => ({ ...row, inner: row.inner ?? [] })), noRows: [] };
    expect(written.replace(`"raw": [{"a": 1}],\n  `, '')).toBe(JSON.stringify(same, null, 2));
  });

  test('a long document comes in chunks of about 64 KB, not as one', async () => {
    const many = listOf(Array.from({ length: 20_000 }, (_, i) => ({ i, text: 'some words' })));
    const sizes: number[] = [];
    for await (const chunk of jsonDocument({ many })) sizes.push(chunk.length);
    expect(sizes.length).toBeGreaterThan(5);
    expect(Math.max(...sizes)).toBeLessThan(80 * 1024);
  });
});

describe('rows read in keyset pages', () => {
  test('each page starts after the last row of the one before; a short page is the last', async () => {
    const all = Array.from({ length: 7 }, (_, i) => ({ id: i }));
    const asked: (number | null)[] = [];
    const read = async (after: { id: number } | null, limit: number) => {
      asked.push(after?.id ?? null);
      return all.filter((row) => row.id > (after?.id ?? -1)).slice(0, limit);
    };
    const rows: { id: number }[] = [];
    for await (const row of inPages(read, 3)) rows.push(row);
    expect(rows).toEqual(all);
    expect(asked).toEqual([null, 2, 5]);
  });
});
