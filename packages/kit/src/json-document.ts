/**
 * JSON text already serialised (a jsonb column selected as `::text`, a body stored as sent): a
 * JSON document writes it as it is, so a large value is never parsed only to be written again.
 */
export class RawJson {
  constructor(readonly text: string) {}
}

/** How much text is gathered before it goes to the stream as one chunk. */
const CHUNK_CHARS = 64 * 1024;

const isAsyncIterable = (value: unknown): value is AsyncIterable<unknown> =>
  typeof value === 'object' && value !== null && Symbol.asyncIterator in value;

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
};

/** Whether a value holds something JSON.stringify cannot write (raw text, a list still to be read). */
function streamed(value: unknown): boolean {
  if (value instanceof RawJson || isAsyncIterable(value)) return true;
  if (Array.isArray(value)) return value.some(streamed);
  return isPlainObject(value) && Object.values(value).some(streamed);
}

/** A value JSON.stringify can write, indented to sit at `indent`; undefined where JSON has no value for it. */
function leaf(value: unknown, indent: string, space: string): string | undefined {
  const text = JSON.stringify(value, null, space) as string | undefined;
  return text === undefined || !indent ? text : text.replaceAll('\n', `\n${indent}`);
}

async function* members(
  entries: AsyncIterable<[string | null, unknown]> | Iterable<[string | null, unknown]>,
  [open, close]: [string, string],
  indent: string,
  space: string,
): AsyncGenerator<string> {
  const inner = indent + space;
  const newline = space ? '\n' : '';
  let first = true;
  for await (const [name, value] of entries) {
    // As JSON.stringify: a member without a JSON value is left out of an object, null in a list.
    if (name !== null && value === undefined) continue;
    const head = `${first ? open : ','}${newline}${inner}${name === null ? '' : `${JSON.stringify(name)}:${space ? ' ' : ''}`}`;
    first = false;
    // A member JSON.stringify can write goes in one piece with its head: most of a document is those.
    if (streamed(value)) {
      yield head;
      yield* json(value, inner, space);
    } else yield head + (leaf(value, inner, space) ?? 'null');
  }
  yield first ? open + close : `${newline}${indent}${close}`;
}

async function* listed(items: AsyncIterable<unknown>): AsyncGenerator<[null, unknown]> {
  for await (const item of items) yield [null, item];
}

async function* json(value: unknown, indent: string, space: string): AsyncGenerator<string> {
  if (value instanceof RawJson) yield value.text;
  else if (isAsyncIterable(value)) yield* members(listed(value), ['[', ']'], indent, space);
  else if (!streamed(value)) yield leaf(value, indent, space) ?? 'null';
  else if (Array.isArray(value))
    yield* members(
      value.map((item): [null, unknown] => [null, item]),
      ['[', ']'],
      indent,
      space,
    );
  else yield* members(Object.entries(value as Record<string, unknown>), ['{', '}'], indent, space);
}

/**
 * A JSON document written as it is read: `value` is written as JSON.stringify(value, null, space)
 * would, except that an async iterable is a list whose items are written as they come (a list read
 * from the database page by page) and a RawJson is written as its text. The text comes in chunks
 * of about 64 KB, so what is held at once is a chunk and the item being written, never the whole
 * document, and whoever reads the chunks (a storage stream, which waits for the disk or the
 * network) gives the event loop its turns between them.
 */
export async function* jsonDocument(value: unknown, space = '  '): AsyncGenerator<Buffer> {
  let pending = '';
  for await (const text of json(value, '', space)) {
    pending += text;
    if (pending.length >= CHUNK_CHARS) {
      yield Buffer.from(pending);
      pending = '';
    }
  }
  if (pending) yield Buffer.from(pending);
}

/**
 * Every row of a list read in keyset pages: `read(after, limit)` reads up to `limit` rows that come
 * after `after` (the previous page's last row, of which `read` says what it needs, e.g.
 * the kit's PageEnd; null for the first page), in the list's order. Rows are read a page at a time,
 * as the consumer asks for them, so no more than a page is held at once.
 */
export async function* inPages<Cursor, Row extends Cursor>(
  read: (after: Cursor | null, limit: number) => Promise<Row[]>,
  limit = 500,
): AsyncGenerator<Row> {
  let after: Cursor | null = null;
  for (;;) {
    const page = await read(after, limit);
    yield* page;
    if (page.length < limit) return;
    after = page.at(-1)!;
  }
}
