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

const envelope = (type: string, companyId: string | null, data: unknown, occurredAt?: string): Envelope =>
  ({
    ...buildEnvelope({ type, companyId, actor: system, data } as NewEvent),
    ...(occurredAt ? { occurredAt } : {}),
  }) as Envelope;

/** A person of a company, as the auth service announces them. */
export function member(
  companyId: string,
  firstName: string,
  lastName: string,
  options: { id?: string; status?: 'active' | 'disabled' } = {},
) {
  const id = options.id ?? randomUUID();
  const after = {
    email: `${firstName.toLowerCase()}@test.local`,
    firstName,
    lastName,
    role: 'USER',
    companyId,
    status: options.status ?? 'active',
  };
  return { id, event: envelope('user.created', companyId, { id, before: null, after }) };
}

export function client(companyId: string) {
  const id = randomUUID();
  const after = {
    name: 'Client',
    organisation: null,
    email: null,
    phone: null,
    externalId: null,
    notes: null,
    ownerId: null,
  };
  return { id, event: envelope('client.created', companyId, { id, before: null, after }) };
}

/** A recording uploaded at `uploadedAt`, optionally of a client and by a person. */
export function upload(
  companyId: string,
  options: { name?: string; clientId?: string | null; uploadedAt?: string; uploadedBy?: string } = {},
) {
  const id = randomUUID();
  const data = {
    id,
    storageKey: 'k',
    originalName: options.name ?? 'call.wav',
    mimeType: 'audio/wav',
    size: 1,
    clientId: options.clientId ?? null,
    uploadedBy: options.uploadedBy ?? null,
  };
  return { id, event: envelope('file.uploaded', companyId, data, options.uploadedAt) };
}

export function proposed(
  companyId: string,
  fileId: string,
  items: { title: string; owner?: string | null; due?: string | null }[],
) {
  const runId = randomUUID();
  return { runId, event: envelope('analysis.action_items_proposed', companyId, { runId, fileId, items }) };
}

/** A company as the tenant service announces it, of a type (b2c: each member's data private). */
export const companyCreated = (companyId: string, type: string) =>
  envelope('company.created', companyId, {
    id: companyId,
    before: null,
    after: { name: 'Shop', code: 'SHOP', domain: 'shop', status: 'active', maxUsers: null, maxStorage: null, type },
  });

export const companyDeleted = (companyId: string) =>
  envelope('company.deleted', companyId, {
    id: companyId,
    before: { name: 'Gone', code: 'GONE', domain: 'gone', status: 'active', maxUsers: null, maxStorage: null },
    after: null,
  });
