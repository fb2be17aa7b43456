import type { FastifyReply } from 'fastify';
import { EDIT_ID_HEADER } from '@earshot/contracts';

/** Names the edit a request made in EDIT_ID_HEADER, beside an answer whose shape is fixed. */
export function withEditId<T>(reply: FastifyReply, editId: string | null, answer: T): T {
  if (editId) reply.header(EDIT_ID_HEADER, editId);
  return answer;
}
