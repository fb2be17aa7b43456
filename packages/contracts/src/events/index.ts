import type { z } from 'zod';
import { authEvents } from './auth';
import { tenantEvents } from './tenant';
import { fileEvents } from './file';
import { transcriptionEvents } from './transcription';
import { chatEvents } from './chat';
import { promptEvents } from './prompt';
import { mailEvents } from './mail';
import { creditEvents } from './credits';
import { policyEvents } from './policies';
import { taskEvents } from './tasks';
import { holdEvents } from './holds';
import { privacyEvents } from './privacy';
import { keyEvents } from './keys';
import { webhookEvents } from './webhooks';
import { auditEvents } from './audit';
import { upcastData, type Envelope, type EventDefinition } from './envelope';

export * from './envelope';
export { CompanyState, ClientState } from './tenant';
export { TranscriptSegmentFact, TEXT_PART_BYTES, textParts } from './transcription';
export { ProviderState, ModelState, PromptState, PatternState } from './prompt';
export { EmailTemplateState } from './mail';
export { TaskState } from './tasks';
export { PrivacySubject } from './privacy';
export { WebhookEndpointState } from './webhooks';
export { AUDIT_TOPIC, AuditChainedEntry } from './audit';

const ALL = [
  ...authEvents,
  ...tenantEvents,
  ...fileEvents,
  ...transcriptionEvents,
  ...chatEvents,
  ...promptEvents,
  ...mailEvents,
  ...creditEvents,
  ...policyEvents,
  ...taskEvents,
  ...holdEvents,
  ...privacyEvents,
  ...keyEvents,
  ...webhookEvents,
  ...auditEvents,
] as const;
type Definitions = (typeof ALL)[number];

export const EVENT_CATALOGUE: readonly EventDefinition[] = ALL;

/** Every event type of the catalogue. */
export type EventType = Definitions['type'];
/** The data of the current version of an event type. */
export type EventData<T extends EventType> = z.infer<Extract<Definitions, { type: T }>['data']>;
/** An envelope of one type, its data as the current version (what a handler receives). */
export type EventOf<T extends EventType> = Omit<Envelope, 'type' | 'data'> & { type: T; data: EventData<T> };

const byType = new Map<string, EventDefinition>(EVENT_CATALOGUE.map((e) => [e.type, e]));

export function isEventType(type: string): type is EventType {
  return byType.has(type);
}

export function eventDefinition(type: string): EventDefinition {
  const def = byType.get(type);
  if (!def) throw new Error(`Unknown event type "${type}": add it to the contracts catalogue`);
  return def;
}

/** The topic an event type is published on. */
export const topicOf = (type: EventType): string => eventDefinition(type).topic;

/**
 * An envelope read as the current version of its type: data parsed against the schema of the
 * version it was written with and upcast (see upcastData). Throws EventVersionError if it cannot be.
 */
export function readEvent<T extends EventType>(type: T, envelope: Envelope): EventOf<T> {
  const def = eventDefinition(type);
  if (envelope.type !== type) throw new Error(`Expected a ${type} event, got ${envelope.type}`);
  return { ...envelope, type, version: def.version, data: upcastData(def, envelope) as EventData<T> };
}

export const TOPICS = [...new Set(EVENT_CATALOGUE.map((e) => e.topic))];
