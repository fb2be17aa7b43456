import type { ClientErrorReportBody } from '@earshot/contracts';
import { tooMany, type Db, type Identity, type Logger } from '@earshot/kit';
import { lockedFor, recordFailure, type ThrottlePolicy } from '../repositories/throttle';

/**
 * A page that crashes in a loop (re-rendered on every state change) must not flood the log, so each
 * person may report a few errors in a window and is refused for a while after that.
 */
export const CLIENT_ERROR_POLICY: ThrottlePolicy = { limit: 20, windowSeconds: 10 * 60, lockSeconds: 10 * 60 };

/**
 * Writes a console crash into the server log, where operators look for errors: the person and
 * company by id only, so the log gains no name or address it did not already hold.
 */
export async function reportClientError(
  db: Db,
  logger: Logger,
  identity: Identity,
  report: ClientErrorReportBody,
): Promise<void> {
  const key = `client-error|${identity.userId}`;
  const wait = await lockedFor(db, [key]);
  if (wait > 0) throw tooMany(wait, 'Too many error reports: the next ones are accepted again later');
  await recordFailure(db, key, CLIENT_ERROR_POLICY);
  logger.warn(
    { clientError: report, userId: identity.userId, companyId: identity.companyId },
    'The console failed to render a page',
  );
}
