// The client form's schema: the contracts' own (ClientCreateBody), after blank inputs become null
// (the API's "no value"; on an update null clears the field).
import { z } from 'zod';
import { ClientCreateBody, type ClientDto } from '@earshot/contracts';

export const CLIENT_FIELDS = ['name', 'organisation', 'email', 'phone', 'externalId', 'notes', 'ownerId'] as const;
export type ClientField = (typeof CLIENT_FIELDS)[number];
export type ClientFormInput = Record<ClientField, string>;

export const ClientFormSchema = z.preprocess(
  (input: ClientFormInput) =>
    Object.fromEntries(
      Object.entries(input).map(([key, value]) => [key, key !== 'name' && value.trim() === '' ? null : value]),
    ),
  ClientCreateBody,
);

export function formValues(client: ClientDto | null): ClientFormInput {
  return Object.fromEntries(CLIENT_FIELDS.map((field) => [field, client?.[field] ?? ''])) as ClientFormInput;
}

/** Minutes and seconds of a recording (m:ss, as the library shows them), or a dash before it is transcribed. */
export function formatDuration(seconds: number | null): string {
  if (seconds === null) return '—';
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}
