// An incremental Server-Sent Events parser (the WHATWG event-stream format): the chat stream is
// a POST, which EventSource cannot send, so the body is read with fetch and parsed here. Chunks
// may split anywhere (inside a line, between \r and \n); an event ends at a blank line.

export interface SseMessage {
  event: string;
  data: string;
}

export interface SseParser {
  /** Feeds decoded text; calls `onMessage` for every event the text completes. */
  push: (text: string) => void;
  /** The stream ended: an event without its closing blank line is dropped, as the format says. */
  end: () => void;
}

export function createSseParser(onMessage: (message: SseMessage) => void): SseParser {
  let buffer = '';
  let event = '';
  let data: string[] = [];
  // A \r at the end of a chunk may be the first half of \r\n.
  let pendingCr = false;

  const dispatch = () => {
    if (data.length > 0) onMessage({ event: event || 'message', data: data.join('\n') });
    event = '';
    data = [];
  };

  const line = (text: string) => {
    if (text === '') return dispatch();
    if (text.startsWith(':')) return; // a comment (keep-alive)
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  };

  return {
    push(text) {
      let input = text;
      if (pendingCr && input.startsWith('\n')) input = input.slice(1);
      pendingCr = false;
      buffer += input;
      const lines = buffer.split(/\r\n|\r|\n/);
      buffer = lines.pop() ?? '';
      if (buffer === '' && input.endsWith('\r')) pendingCr = true;
      lines.forEach(line);
    },
    end() {
      buffer = '';
      event = '';
      data = [];
    },
  };
}
