import { z } from 'zod';
import { ROLES } from '../roles';

export const Actor = z.object({
  type: z.enum(['user', 'system']),
  id: z.string().nullable(),
  email: z.string().optional(),
  role: z.enum(ROLES).optional(),
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

/** One event type of the catalogue: its topic (the owning domain), version and data schema. */
export interface EventDefinition<T extends string = string, S extends z.ZodTypeAny = z.ZodTypeAny> {
  type: T;
  version: number;
  topic: string;
  description: string;
  data: S;
}

export function defineEvent<T extends string, S extends z.ZodTypeAny>(def: EventDefinition<T, S>) {
  return def;
}

/** Changes to an entity carry its id and, where they apply, the state before and after. */
export const change = <S extends z.ZodTypeAny>(state: S) =>
  z.object({ id: z.string(), before: state.nullable().optional(), after: state.nullable().optional() });
