import type { Envelope } from '@earshot/contracts';
import type { NewEntryRow } from '../db/schema';

/** Field names whose values never go into the log (matched anywhere in the name, any case). */
const SECRET_KEY =
  /password|passwd|token|secret|api_?key|reset_?url|sealed|authorization|cookie|credential|private_?key/i;
export const REDACTED = '[redacted]';
/** Content that events carry for other services' copies (transcript text): the log notes only its size. */
const CONTENT_KEY = /^(segments|segmentText)$/;

/** A copy of `value` with every secret-looking field, at any depth, replaced by "[redacted]". */
export function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        SECRET_KEY.test(k) ? REDACTED : CONTENT_KEY.test(k) ? omitted(v) : redact(v),
      ]),
    );
  }
  return value;
}

function omitted(value: unknown): string {
  return Array.isArray(value) ? `[${value.length} items omitted]` : '[omitted]';
}

/** What an event is about: the domain of its type (user, company, file...) and the entity id. */
export function targetOf(envelope: Envelope): { type: string; id: string | null } {
  // Credit events name their ledger entry.
  const id = [envelope.data.id, envelope.data.fileId, envelope.data.entryId].find((v) => typeof v === 'string') as
    string | undefined;
  return { type: envelope.type.split('.')[0]!, id: id ?? null };
}

/** One log row per event. Unknown event types are kept too: the log records what happened. */
export function entryOf(envelope: Envelope): NewEntryRow {
  const data = redact(envelope.data) as Record<string, unknown>;
  const target = targetOf(envelope);
  return {
    id: envelope.id,
    occurredAt: new Date(envelope.occurredAt),
    type: envelope.type,
    version: envelope.version,
    companyId: envelope.companyId,
    actor: envelope.actor,
    actorId: envelope.actor.id,
    targetType: target.type,
    targetId: target.id,
    before: data.before ?? null,
    after: data.after ?? null,
    data,
  };
}
