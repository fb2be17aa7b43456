import { z } from 'zod';
import { ACTOR_ROLES } from '../roles';

export const Actor = z.object({
  // 'service': a company's service account (a request with its API key).
  type: z.enum(['user', 'service', 'system']),
  id: z.string().nullable(),
  email: z.string().optional(),
  role: z.enum(ACTOR_ROLES).optional(),
  ip: z.string().optional(),
});
export type Actor = z.infer<typeof Actor>;
export const SYSTEM_ACTOR: Actor = { type: 'system', id: null };

/** Every event on the bus: a past-tense fact, versioned, keyed by company. */
export const Envelope = z.object({
  id: z.string().uuid(),
  type: z.string().regex(/^[a-z_]+\.[a-z_]+$/),
  version: z.number().int().min(1),
  occurredAt: z.string().datetime(),
  companyId: z.string().nullable(),
  actor: Actor,
  data: z.record(z.string(), z.unknown()),
});
export type Envelope<D = Record<string, unknown>> = Omit<z.infer<typeof Envelope>, 'data'> & { data: D };

/**
 * An earlier version of an event type that may still be on the bus (or in an outbox, or replayed
 * from Kafka): its data schema and how to turn its data into the next version's.
 */
export interface PastVersion {
  version: number;
  data: z.ZodTypeAny;
  /** Parses data of this version and turns it into data of `version + 1` (throws when it does not match). */
  next(data: unknown): unknown;
}

/**
 * One event type of the catalogue: its topic (the owning domain), current version and data schema,
 * and the upcasts from every earlier version: an old event is upgraded, never dropped.
 */
export interface EventDefinition<T extends string = string, S extends z.ZodTypeAny = z.ZodTypeAny> {
  type: T;
  version: number;
  topic: string;
  description: string;
  data: S;
  past?: readonly PastVersion[];
}

export function defineEvent<T extends string, S extends z.ZodTypeAny>(def: EventDefinition<T, S>) {
  return def;
}

/** A past version whose upcast is typed against its own schema. */
export function pastVersion<S extends z.ZodTypeAny>(
  version: number,
  data: S,
  upcast: (data: z.infer<S>) => unknown,
): PastVersion {
  return { version, data, next: (value) => upcast(data.parse(value)) };
}

export class EventVersionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EventVersionError';
  }
}

/**
 * The data of `envelope` as the current version of its type: parsed against the schema of the
 * version it was written with, upcast step by step, and parsed against the current schema.
 * Throws EventVersionError when the version is unknown (newer than this build, or never declared)
 * or the data does not match: retrying cannot fix either.
 */
export function upcastData<S extends z.ZodTypeAny>(
  def: EventDefinition<string, S>,
  envelope: { version: number; data: unknown },
): z.infer<S> {
  let version = envelope.version;
  let data: unknown = envelope.data;
  while (version < def.version) {
    const past = def.past?.find((p) => p.version === version);
    if (!past) throw new EventVersionError(`${def.type} v${version} has no upcast to v${version + 1}`);
    try {
      data = past.next(data);
    } catch (error) {
      throw new EventVersionError(
        `${def.type} v${version} data does not match its schema: ${(error as Error).message}`,
      );
    }
    version += 1;
  }
  if (version > def.version)
    throw new EventVersionError(`${def.type} v${version} is newer than this build knows (v${def.version})`);
  const parsed = def.data.safeParse(data);
  if (!parsed.success)
    throw new EventVersionError(`${def.type} v${version} data does not match its schema: ${parsed.error.message}`);
  return parsed.data;
}

/** Changes to an entity carry its id and, where they apply, the state before and after. */
export const change = <S extends z.ZodTypeAny>(state: S) =>
  z.object({ id: z.string(), before: state.nullable().optional(), after: state.nullable().optional() });
