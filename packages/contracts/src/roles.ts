/** The roles a person holds (assignable to users, listed in the console). */
export const ROLES = ['HOST_ADMIN', 'ADMIN', 'USER', 'CALLER'] as const;
export type Role = (typeof ROLES)[number];

/**
 * The role of a request made with a company's API key (header `X-API-Key`): a service account of
 * that company (a dialer, a CRM) that may upload recordings and read transcripts and their
 * statuses, nothing else. Never a person's role: no user can be given it, `ROLES` leaves it out and
 * the console never lists it.
 */
export const SERVICE_ROLE = 'SERVICE' as const;

/** Who a caller can be: a person with a role, or a company's service account. */
export type CallerRole = Role | typeof SERVICE_ROLE;
/** Every role an event's actor may have (a service account's actions are audited too). */
export const ACTOR_ROLES = [...ROLES, SERVICE_ROLE] as const;

/** Who may call a route: 'public' needs no session; a list needs a session with one of those roles. */
export type RouteAccess = 'public' | readonly CallerRole[];

/** Every signed-in person (not service accounts). */
export const ALL_ROLES: readonly Role[] = ROLES;
export const HOST_ONLY: readonly Role[] = ['HOST_ADMIN'];
export const ADMINS: readonly Role[] = ['HOST_ADMIN', 'ADMIN'];
/** Every person, and a company's service account: uploading recordings and reading transcripts. */
export const MEMBERS_AND_SERVICE: readonly CallerRole[] = [...ROLES, SERVICE_ROLE];
