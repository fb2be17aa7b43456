import { ERROR_CODES } from '@earshot/contracts';
import { HttpError } from '@earshot/kit';

/** A 400 naming the field, in the same form as the schema's own validation errors. */
export const invalid = (field: string, message: string) =>
  new HttpError(400, `Invalid ${field}: ${message}`, ERROR_CODES.VALIDATION, [{ field, message }]);
