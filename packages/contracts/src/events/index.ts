import { authEvents } from './auth';
import { tenantEvents } from './tenant';
import { fileEvents } from './file';
import { transcriptionEvents } from './transcription';
import { chatEvents } from './chat';
import { promptEvents } from './prompt';
import type { EventDefinition } from './envelope';

export * from './envelope';
export { CompanyState } from './tenant';
export { TranscriptSegmentFact } from './transcription';
export { ProviderState, ModelState } from './prompt';

export const EVENT_CATALOGUE: readonly EventDefinition[] = [
  ...authEvents,
  ...tenantEvents,
  ...fileEvents,
  ...transcriptionEvents,
  ...chatEvents,
  ...promptEvents,
];

const byType = new Map(EVENT_CATALOGUE.map((e) => [e.type, e]));

export function eventDefinition(type: string): EventDefinition {
  const def = byType.get(type);
  if (!def) throw new Error(`Unknown event type "${type}": add it to the contracts catalogue`);
  return def;
}

export const TOPICS = [...new Set(EVENT_CATALOGUE.map((e) => e.topic))];
