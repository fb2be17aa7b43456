import { conflict, uniqueViolation, type HttpError } from '@earshot/kit';

const CONSTRAINT_FIELDS: Record<string, 'code' | 'domain'> = {
  companies_code_key: 'code',
  companies_domain_key: 'domain',
};

export function duplicateField(field: 'code' | 'domain'): HttpError {
  return conflict(`A company with this ${field} already exists`, [{ field: `body.${field}`, message: 'is already taken' }]);
}

/**
 * A unique violation that slipped past the pre-check (two requests at once) as the same 409 the
 * pre-check gives; anything else is rethrown. Drizzle wraps driver errors, so follow `cause`.
 */
export function rethrowDuplicate(error: unknown): never {
  const field = CONSTRAINT_FIELDS[uniqueViolation(error)?.constraint ?? ''];
  if (field) throw duplicateField(field);
  throw error;
}
