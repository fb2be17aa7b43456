import type { FastifyRequest } from 'fastify';
import { ERROR_CODES, PROMPT_MESSAGES } from '@earshot/contracts';
import { HttpError } from '@earshot/kit';

/** Complete sentences from the spec (and their siblings), shown as they are rather than after "Invalid <field>:". */
const SENTENCES = new Set<string>([
  PROMPT_MESSAGES.fieldNameRequired,
  PROMPT_MESSAGES.descriptionRequired,
  PROMPT_MESSAGES.optionsRequired,
  PROMPT_MESSAGES.optionsTooFew,
  PROMPT_MESSAGES.rangeRequired,
  PROMPT_MESSAGES.rangeFormat,
  PROMPT_MESSAGES.rangeOrder,
  PROMPT_MESSAGES.optionsUnique,
  PROMPT_MESSAGES.fieldNamesUnique,
  PROMPT_MESSAGES.companiesRequired,
  PROMPT_MESSAGES.usersRequired,
]);
const isSentence = (message: string) =>
  SENTENCES.has(message) || message.startsWith(`${PROMPT_MESSAGES.unknownVariable} {{`);

interface ValidationFailure {
  code?: string;
  validationContext?: string;
  validation?: { message?: string; instancePath?: string }[];
}

/**
 * preHandler of routes with `attachValidation`: a body whose first problem is one the spec words
 * ('Field name is required', ...) answers 400 with that sentence as the `message`, every
 * problem in `details` by field path, as the form shows them. Anything else goes on to the
 * common validation answer.
 */
export async function specMessages(request: FastifyRequest): Promise<void> {
  const error = request.validationError as (Error & ValidationFailure) | undefined;
  if (!error) return;
  const issues = error.validation ?? [];
  const first = issues[0]?.message;
  if (error.validationContext !== 'body' || !first || !isSentence(first)) throw error;
  const details = issues.map((v) => ({
    field: `body${(v.instancePath ?? '').replace(/\//g, '.')}`.replace(/\.$/, ''),
    message: v.message ?? 'Invalid value',
  }));
  throw new HttpError(400, first, ERROR_CODES.VALIDATION, details);
}
