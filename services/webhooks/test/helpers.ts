import { randomUUID } from 'node:crypto';
import { eventDefinition, type Envelope } from '@earshot/contracts';
import { buildEnvelope, type NewEvent } from '@earshot/kit';
import type { TestStack } from '@earshot/kit/testing';

const system = { type: 'system', id: null } as const;

/** Publishes events as their producers would, and waits until every consumer has them. */
export async function deliver(stack: TestStack, ...envelopes: Envelope[]): Promise<void> {
  await stack.bus.publish(
    envelopes.map((envelope) => ({
      topic: eventDefinition(envelope.type).topic,
      key: envelope.companyId ?? 'platform',
      envelope,
    })),
  );
  await stack.settle();
}

export const envelope = (type: string, companyId: string | null, data: unknown): Envelope =>
  buildEnvelope({ type, companyId, actor: system, data } as NewEvent) as Envelope;

/** A recording uploaded to a company, as the file service announces it. */
export function uploaded(companyId: string, name = 'call.wav'): Envelope {
  return envelope('file.uploaded', companyId, {
    id: randomUUID(),
    storageKey: 'k',
    originalName: name,
    mimeType: 'audio/wav',
    size: 1,
    clientId: null,
    uploadedBy: null,
  });
}

/** A client made in a company, as the tenant service announces it. */
export function clientCreated(companyId: string, name = 'Acme Ltd'): Envelope {
  const after = {
    name,
    organisation: null,
    email: 'x@acme.test',
    phone: null,
    externalId: 'crm-1',
    notes: null,
    ownerId: null,
  };
  return envelope('client.created', companyId, { id: randomUUID(), before: null, after });
}
