import { ROLES, type Role } from '@earshot/contracts/constants';

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/**
 * Who may open a path (the product's route table and role permissions). Paths not listed here only need
 * a signed-in user. The spec's guard enforced only the first six HOST_ADMIN paths and left the
 * other role lists unenforced; we enforce every list (the server enforces them too).
 */
const ACCESS: ReadonlyArray<readonly [prefix: string, roles: readonly Role[]]> = [
  ['/companies', ['HOST_ADMIN']],
  ['/features', ['HOST_ADMIN']],
  ['/prompts', ['HOST_ADMIN']],
  ['/pricing', ['HOST_ADMIN']],
  ['/b2c-users', ['HOST_ADMIN']],
  ['/audit-logs', ['HOST_ADMIN']],
  ['/email-templates', ['HOST_ADMIN']],
  ['/ai-config', ['HOST_ADMIN']],
  ['/custom-gpts', ['HOST_ADMIN', 'ADMIN']],
  ['/users', ['HOST_ADMIN', 'ADMIN']],
  // A company's statement: an ADMIN sees their company's, a HOST_ADMIN picks one.
  ['/invoice', ['HOST_ADMIN', 'ADMIN']],
  // A company's data policies, read-only: the company's ADMIN; HOST_ADMIN sets them on /companies.
  ['/data-policies', ['ADMIN']],
  // A company's outgoing webhooks: its ADMIN; a HOST_ADMIN picks the company.
  ['/webhooks', ['HOST_ADMIN', 'ADMIN']],
  // A company's sign-in and provisioning (its identity provider): its ADMIN; a HOST_ADMIN picks the company.
  ['/identity', ['HOST_ADMIN', 'ADMIN']],
  // The menu shows clients to ADMIN and CALLER; a HOST_ADMIN may open them read-only
  // to support a company (the tenant service allows its reads, services/tenant/README.md).
  ['/clients', ['ADMIN', 'CALLER', 'HOST_ADMIN']],
  ['/client', ['ADMIN', 'CALLER', 'HOST_ADMIN']],
  ['/ai-features', ['ADMIN']],
  // Dashboards: CRM for the roles that work with clients (a HOST_ADMIN picks the
  // company), the platform overview for the platform administrator; /analytics is everyone's.
  ['/crm', ['ADMIN', 'CALLER', 'HOST_ADMIN']],
  ['/saas', ['HOST_ADMIN']],
];

/** The roles allowed on a path, or null when any signed-in user may open it. */
export function rolesForPath(pathname: string): readonly Role[] | null {
  const path = pathname.split(/[?#]/)[0] ?? '';
  for (const [prefix, roles] of ACCESS) {
    if (path === prefix || path.startsWith(`${prefix}/`)) return roles;
  }
  return null;
}
