import type { FastifyReply, FastifyRequest } from 'fastify';
import { TRANSCRIPT_VERSION_HEADER } from '@earshot/contracts';
import { badRequest } from '@earshot/kit';

/** `"3"`, `W/"3"` or a bare `3`: the version an ETag of an edit answer named. */
const IF_MATCH = /^(?:W\/)?"?(\d{1,9})"?$/;

/**
 * The transcript version an edit was made on: the `If-Match` header (ETag-style) or the body's
 * `baseVersion`; undefined when neither is given (`If-Match: *` names no version), and the edit
 * then applies to the transcript as it is, as for API clients that never sent one.
 */
export function baseVersionOf(request: FastifyRequest, body?: { baseVersion?: number }): number | undefined {
  const header = request.headers['if-match'];
  const raw = Array.isArray(header) ? header.join(',') : header?.trim();
  let fromHeader: number | undefined;
  if (raw && raw !== '*') {
    const match = IF_MATCH.exec(raw);
    if (!match)
      throw badRequest('Invalid If-Match: must be the transcript version an edit answer named, e.g. "3"', {
        field: 'headers.if-match',
      });
    fromHeader = Number(match[1]);
  }
  const fromBody = body?.baseVersion;
  if (fromHeader !== undefined && fromBody !== undefined && fromHeader !== fromBody)
    throw badRequest('Invalid body.baseVersion: differs from the If-Match header', { field: 'body.baseVersion' });
  return fromHeader ?? fromBody;
}

/** Names the transcript's version after an edit, ETag-style, beside an answer of any shape. */
export function withVersion<T>(reply: FastifyReply, version: number, answer: T): T {
  reply.header(TRANSCRIPT_VERSION_HEADER, `"${version}"`);
  return answer;
}
