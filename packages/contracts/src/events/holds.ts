import { z } from 'zod';
import { defineEvent } from './envelope';

/** The hold after the change and why it changed; the envelope's actor says who. */
const holdChanged = z.object({ id: z.string(), hold: z.boolean(), reason: z.string() });

/** A retention job's run for one company: what it removed, and the cut-off it removed by. */
const retentionApplied = z.object({
  service: z.enum(['file', 'chat', 'audit']),
  /** Removed objects by kind, e.g. `{recordings: 3}` or `{conversations: 12}`. */
  removed: z.record(z.string(), z.number().int().nonnegative()),
  /** The company's policy in days, and the time before which objects were due. */
  days: z.number().int().positive(),
  olderThan: z.string().datetime(),
  /** Objects due but kept because a legal hold covers them. */
  held: z.number().int().nonnegative(),
});

/** A `<kind>.hold_changed` event, on the topic of the service that owns the held object. */
const holdEvent = <T extends string>(type: T, topic: string, description: string) =>
  defineEvent({ type, version: 1, topic, description, data: holdChanged });

export const holdEvents = [
  holdEvent(
    'file.hold_changed',
    'earshot.file',
    'A legal hold was placed on a recording (hold true) or lifted (false); while held nothing deletes it.',
  ),
  holdEvent(
    'client.hold_changed',
    'earshot.tenant',
    'A legal hold was placed on a client or lifted; while held, neither the client nor the recordings linked to it are deleted.',
  ),
  holdEvent(
    'company.hold_changed',
    'earshot.tenant',
    'A legal hold was placed on a whole company or lifted; while held, nothing of the company is deleted (the company itself included).',
  ),
  defineEvent({
    type: 'retention.applied',
    version: 1,
    topic: 'earshot.retention',
    description:
      "A daily retention job removed a company's data that its retention policy made due (each removal also has its own deleted event); sent only when something was removed.",
    data: retentionApplied,
  }),
] as const;
