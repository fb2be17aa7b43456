export const ROLES = ['HOST_ADMIN', 'ADMIN', 'USER', 'CALLER'] as const;
export type Role = (typeof ROLES)[number];

/** Who may call a route: 'public' needs no session; a list needs a session with one of those roles. */
export type RouteAccess = 'public' | readonly Role[];

export const ALL_ROLES: readonly Role[] = ROLES;
export const HOST_ONLY: readonly Role[] = ['HOST_ADMIN'];
export const ADMINS: readonly Role[] = ['HOST_ADMIN', 'ADMIN'];
