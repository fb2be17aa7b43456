// SCIM provisioning's fixed names, shared by the auth service and the console (no zod: the console's constants entry).

/** Tokens start with this, so a leaked one is recognisable (secret scanners) and others are refused unhashed. */
export const SCIM_TOKEN_PREFIX = 'scim_';
/** The actor id of what a SCIM token did (`scim-token:<token id>`), in events and the audit log. */
export const SCIM_ACTOR_PREFIX = 'scim-token:';
/** Where an identity provider reaches the SCIM API, below the console's address. */
export const SCIM_BASE_PATH = '/api/scim/v2';

export const SCIM_SCHEMAS = {
  user: 'urn:ietf:params:scim:schemas:core:2.0:User',
  group: 'urn:ietf:params:scim:schemas:core:2.0:Group',
  list: 'urn:ietf:params:scim:api:messages:2.0:ListResponse',
  patch: 'urn:ietf:params:scim:api:messages:2.0:PatchOp',
  error: 'urn:ietf:params:scim:api:messages:2.0:Error',
  serviceProviderConfig: 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig',
  resourceType: 'urn:ietf:params:scim:schemas:core:2.0:ResourceType',
  schema: 'urn:ietf:params:scim:schemas:core:2.0:Schema',
} as const;

/** The most resources one list answer holds (ServiceProviderConfig says so). */
export const SCIM_MAX_PAGE = 200;
