import { AI_CONFIG_MESSAGES } from '@earshot/contracts';
import { BlockedUrlError, checkUrl, type OutboundPolicy } from '@earshot/ai';
import { badRequest, conflict, isUniqueViolation, type HttpError } from '@earshot/kit';

export const duplicateModel = (): HttpError =>
  conflict(AI_CONFIG_MESSAGES.duplicateModel, [{ field: 'body.name', message: 'is already taken' }]);

export const unknownProvider = (): HttpError =>
  badRequest(AI_CONFIG_MESSAGES.unknownProvider, [{ field: 'body.providerId', message: 'no such provider' }]);

/**
 * Refuses a base URL whose host is, or resolves to, a link-local/metadata address, or a private or
 * loopback one unless allowed. Calls re-check at connect time (DNS may change); this gives the
 * administrator the reason while they are still on the form.
 */
export async function assertBaseUrlAllowed(baseUrl: string, policy: OutboundPolicy): Promise<void> {
  const invalid = (message: string) => badRequest(message, [{ field: 'body.baseUrl', message }]);
  try {
    await checkUrl(baseUrl, policy);
  } catch (error) {
    if (error instanceof BlockedUrlError) throw invalid(error.message);
    const code = (error as { code?: string }).code ?? 'unknown error';
    throw invalid(`The host of this URL could not be resolved (${code})`);
  }
}

/**
 * A unique violation that slipped past the pre-check (two requests at once) as the same 409 the
 * pre-check gives; anything else is rethrown.
 */
export function rethrowDuplicateModel(error: unknown): never {
  if (isUniqueViolation(error, 'ai_models_provider_name_purpose_key')) throw duplicateModel();
  throw error;
}
