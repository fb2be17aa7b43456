import { conflict, uniqueViolation, type HttpError } from '@earshot/kit';

type Unique = { what: 'company'; field: 'code' | 'domain' } | { what: 'client'; field: 'externalId' };

const CONSTRAINTS: Record<string, Unique> = {
  companies_code_key: { what: 'company', field: 'code' },
  companies_domain_key: { what: 'company', field: 'domain' },
  clients_external_id_key: { what: 'client', field: 'externalId' },
};

const LABELS: Record<Unique['field'], string> = { code: 'code', domain: 'domain', externalId: 'external id' };

export function duplicateField(field: 'code' | 'domain'): HttpError;
export function duplicateField(field: 'externalId', what: 'client'): HttpError;
export function duplicateField(field: Unique['field'], what: Unique['what'] = 'company'): HttpError {
  const scope = what === 'client' ? ' in this company' : '';
  return conflict(`A ${what} with this ${LABELS[field]} already exists${scope}`, [
    { field: `body.${field}`, message: 'is already taken' },
  ]);
}

/**
 * A unique violation that slipped past the pre-check (two requests at once) as the same 409 the
 * pre-check gives; anything else is rethrown.
 */
export function rethrowDuplicate(error: unknown): never {
  const unique = CONSTRAINTS[uniqueViolation(error)?.constraint ?? ''];
  if (unique) throw unique.what === 'client' ? duplicateField(unique.field, 'client') : duplicateField(unique.field);
  throw error;
}
