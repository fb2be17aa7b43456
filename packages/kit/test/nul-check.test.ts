import { PassThrough } from 'node:stream';
import { findNul } from '../src/server';

// The distributed gateway's proxy hands the service the raw request as the body: a stream is never
// walked (its socket and server made the walk take minutes), the service checks the parsed body.
test('a stream body is not walked; a parsed one is, at any depth', () => {
  const stream = Object.assign(new PassThrough(), { note: 'hidden\u0000' });
  expect(findNul(stream, 'body')).toBeNull();
  expect(findNul({ items: [{ note: 'hidden\u0000' }] }, 'body')).toBe('body.items.0.note');
});
