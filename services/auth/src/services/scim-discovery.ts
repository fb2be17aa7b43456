import { SCIM_BASE_PATH, SCIM_MAX_PAGE, SCIM_SCHEMAS } from '@earshot/contracts';

/**
 * What this SCIM service provider supports (RFC 7643 §5-7), for identity providers that read it
 * before provisioning: PATCH and `eq` filters yes; bulk, sorting, ETags and password changes no.
 */
export function serviceProviderConfig(base: string) {
  return {
    schemas: [SCIM_SCHEMAS.serviceProviderConfig],
    documentationUri: `${base}/api/docs`,
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: SCIM_MAX_PAGE },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'OAuth Bearer Token',
        description: "A SCIM token created by the company's administrator, in Authorization: Bearer",
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${base}${SCIM_BASE_PATH}/ServiceProviderConfig` },
  };
}

export function resourceTypes(base: string) {
  const type = (id: 'User' | 'Group', endpoint: string, schema: string) => ({
    schemas: [SCIM_SCHEMAS.resourceType],
    id,
    name: id,
    endpoint,
    schema,
    meta: { resourceType: 'ResourceType', location: `${base}${SCIM_BASE_PATH}/ResourceTypes/${id}` },
  });
  return [type('User', '/Users', SCIM_SCHEMAS.user), type('Group', '/Groups', SCIM_SCHEMAS.group)];
}

interface Attribute {
  name: string;
  type: 'string' | 'boolean' | 'complex' | 'reference' | 'dateTime';
  multiValued?: boolean;
  required?: boolean;
  mutability?: 'readOnly' | 'readWrite' | 'immutable';
  uniqueness?: 'none' | 'server';
  subAttributes?: Attribute[];
}

interface AttributeDefinition extends Omit<Attribute, 'subAttributes'> {
  caseExact: boolean;
  returned: 'default';
  subAttributes?: AttributeDefinition[];
}

const attribute = ({
  multiValued = false,
  required = false,
  mutability = 'readWrite',
  uniqueness = 'none',
  subAttributes,
  ...rest
}: Attribute): AttributeDefinition => ({
  ...rest,
  multiValued,
  required,
  caseExact: false,
  mutability,
  returned: 'default',
  uniqueness,
  ...(subAttributes ? { subAttributes: subAttributes.map(attribute) } : {}),
});

/** The attributes Earshot keeps; identity providers may send others, which are accepted and ignored. */
export function schemas(base: string) {
  const schema = (id: string, name: string, description: string, attributes: Attribute[]) => ({
    schemas: [SCIM_SCHEMAS.schema],
    id,
    name,
    description,
    attributes: attributes.map(attribute),
    meta: { resourceType: 'Schema', location: `${base}${SCIM_BASE_PATH}/Schemas/${id}` },
  });
  return [
    schema(SCIM_SCHEMAS.user, 'User', 'A person of the company', [
      { name: 'userName', type: 'string', required: true, uniqueness: 'server' },
      { name: 'externalId', type: 'string' },
      {
        name: 'name',
        type: 'complex',
        subAttributes: [
          { name: 'givenName', type: 'string' },
          { name: 'familyName', type: 'string' },
          { name: 'formatted', type: 'string' },
        ],
      },
      { name: 'displayName', type: 'string' },
      {
        name: 'emails',
        type: 'complex',
        multiValued: true,
        mutability: 'readOnly',
        subAttributes: [
          { name: 'value', type: 'string' },
          { name: 'type', type: 'string' },
          { name: 'primary', type: 'boolean' },
        ],
      },
      { name: 'active', type: 'boolean' },
      {
        name: 'groups',
        type: 'complex',
        multiValued: true,
        mutability: 'readOnly',
        subAttributes: [
          { name: 'value', type: 'string' },
          { name: 'display', type: 'string' },
        ],
      },
    ]),
    schema(SCIM_SCHEMAS.group, 'Group', "One of Earshot's roles: ADMIN, USER, CALLER", [
      { name: 'displayName', type: 'string', required: true, mutability: 'immutable', uniqueness: 'server' },
      {
        name: 'members',
        type: 'complex',
        multiValued: true,
        subAttributes: [
          { name: 'value', type: 'string' },
          { name: 'display', type: 'string' },
        ],
      },
    ]),
  ];
}
