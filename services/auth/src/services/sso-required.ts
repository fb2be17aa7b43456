import { AUTH_CODES, AUTH_MESSAGES } from '@earshot/contracts';
import { HttpError, type Db } from '@earshot/kit';
import type { UserRow } from '../db/schema';
import { findSsoProvider, ssoProviderForDomain } from '../repositories/sso';

// A company that requires its own sign-in (single sign-on) refuses passwords for its people:
// sign-in, reset and the invitation's first password. Platform administrators belong to no company
// and keep their password (the break-glass account).

export const ssoRequired = () => new HttpError(403, AUTH_MESSAGES.ssoRequired, AUTH_CODES.ssoRequired);

/** Whether the e-mail's domain belongs to a company that requires single sign-on (public: discover says as much). */
export async function domainRequiresSso(db: Db, email: string): Promise<string | null> {
  const provider = await ssoProviderForDomain(db, email.slice(email.lastIndexOf('@') + 1));
  return provider?.required ? provider.companyId : null;
}

/** Whether this account's company requires single sign-on. */
export async function userRequiresSso(db: Db, user: Pick<UserRow, 'companyId'>): Promise<boolean> {
  if (user.companyId === null) return false;
  return (await findSsoProvider(db, user.companyId))?.required ?? false;
}
