import { describe, expect, it } from '@jest/globals';
import { toStreamEvent } from './chat-stream';
import { createSseParser, type SseMessage } from './sse';

function parse(chunks: string[]): SseMessage[] {
  const out: SseMessage[] = [];
  const parser = createSseParser((message) => out.push(message));
  chunks.forEach(parser.push);
  parser.end();
  return out;
}

describe('SSE parser', () => {
  const stream = 'event: start\ndata: {"model":"m"}\n\nevent: delta\ndata: {"text":"Hel"}\n\nevent: delta\ndata: {"text":"lo"}\n\n';
  const expected = [
    { event: 'start', data: '{"model":"m"}' },
    { event: 'delta', data: '{"text":"Hel"}' },
    { event: 'delta', data: '{"text":"lo"}' },
  ];

  it('reads events whole', () => {
    expect(parse([stream])).toEqual(expected);
  });

  it('gives the same events however the chunks split (one character at a time included)', () => {
    expect(parse(stream.split(''))).toEqual(expected);
    for (let at = 1; at < stream.length; at += 1) expect(parse([stream.slice(0, at), stream.slice(at)])).toEqual(expected);
  });

  it('joins multi-line data with newlines and takes CRLF, CR and LF line ends, split between \\r and \\n too', () => {
    expect(parse(['event: delta\r', '\ndata: line one\r\ndata: line two\rdata:three\n\r', '\n'])).toEqual([
      { event: 'delta', data: 'line one\nline two\nthree' },
    ]);
  });

  it('skips comments, ignores unknown fields, defaults the event to message, drops an unfinished event', () => {
    expect(parse([': keep-alive\n\nid: 7\nretry: 10\ndata: plain\n\nevent: delta\ndata: {"text":"cut off"}'])).toEqual([
      { event: 'message', data: 'plain' },
    ]);
  });

  it('turns known events with JSON data into stream events and ignores the rest', () => {
    expect(toStreamEvent('delta', '{"text":"a"}')).toEqual({ type: 'delta', data: { text: 'a' } });
    expect(toStreamEvent('delta', 'not json')).toBeNull();
    expect(toStreamEvent('ping', '{}')).toBeNull();
  });
});
