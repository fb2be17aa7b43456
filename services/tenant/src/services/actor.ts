import type { FastifyRequest } from 'fastify';
import type { Actor } from '@earshot/contracts';
import { actorOf as actorOfIdentity, identityOf } from '@earshot/kit';

/** The signed-in caller of a request as an event's actor. */
export function actorOf(request: FastifyRequest): Actor {
  return actorOfIdentity(identityOf(request), request.ip);
}
