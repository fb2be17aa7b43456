import { z } from 'zod';
import {
  Email,
  SCIM_BASE_PATH,
  SCIM_MAX_PAGE,
  SCIM_SCHEMAS,
  ScimBoolean,
  isId,
  type Role,
  type ScimErrorType,
  type ScimGroupBody,
  type ScimListQuery,
  type ScimPatchBody,
  type ScimUserBody,
  type UpdateUserBody,
} from '@earshot/contracts';
import { HttpError, consoleAddress, type Identity } from '@earshot/kit';
import type { UserRow } from '../db/schema';
import { listScimUsers, membersWithRole, type ScimUserFilter } from '../repositories/scim';
import * as repo from '../repositories/users';
import { actorOf, userState, type AuthContext } from './context';
import {
  NO_PASSWORD,
  checkCompanyRoom,
  checkEmailFree,
  checkExternalIdFree,
  guardUnique,
  type UserService,
} from './users';

/** An error SCIM clients read: its status and, where RFC 7644 names one, its scimType. */
export class ScimError extends HttpError {
  constructor(
    statusCode: number,
    message: string,
    public readonly scimType?: ScimErrorType,
  ) {
    super(statusCode, message, scimType ?? 'SCIM_ERROR');
  }
}

const invalidValue = (detail: string) => new ScimError(400, detail, 'invalidValue');
const mutability = (detail: string) => new ScimError(400, detail, 'mutability');
const noUser = () => new ScimError(404, 'User not found');
const noGroup = () => new ScimError(404, 'Group not found');

/** Earshot's groups are its company roles: a person is in exactly one, USER unless placed in another. */
export const SCIM_GROUPS = ['ADMIN', 'USER', 'CALLER'] as const satisfies readonly Role[];
type GroupRole = (typeof SCIM_GROUPS)[number];
const BASE_ROLE: GroupRole = 'USER';
const isGroup = (id: string): id is GroupRole => (SCIM_GROUPS as readonly string[]).includes(id);

/** `attr eq "value"`, the one filter identity providers send for lookups (RFC 7644 §3.4.2.2). */
const EQ_FILTER = /^\s*([A-Za-z][\w.:-]*)\s+eq\s+"((?:[^"\\]|\\.)*)"\s*$/i;

function parseFilter(
  filter: string | undefined,
  attributes: readonly string[],
): { attribute: string; value: string } | null {
  if (filter === undefined || filter.trim() === '') return null;
  const match = EQ_FILTER.exec(filter);
  const attribute = match && attributes.find((a) => a.toLowerCase() === match[1]!.toLowerCase());
  if (!match || !attribute) {
    throw new ScimError(
      400,
      `Unsupported filter: only ${attributes.map((a) => `${a} eq "…"`).join(' or ')} is supported`,
      'invalidFilter',
    );
  }
  try {
    return { attribute, value: JSON.parse(`"${match[2]}"`) as string };
  } catch {
    throw new ScimError(400, 'The filter’s value is not a valid string', 'invalidFilter');
  }
}

/** `attributes` / `excludedAttributes` on top-level names; id and schemas are always returned. */
function project(resource: Record<string, unknown>, query: Pick<ScimListQuery, 'attributes' | 'excludedAttributes'>) {
  const names = (list?: string) =>
    new Set(
      (list ?? '')
        .split(',')
        .map((a) =>
          a
            .trim()
            .replace(/^urn:[^ ]*:/i, '')
            .split('.')[0]!
            .toLowerCase(),
        )
        .filter(Boolean),
    );
  const wanted = names(query.attributes);
  const excluded = names(query.excludedAttributes);
  return Object.fromEntries(
    Object.entries(resource).filter(([key]) => {
      if (key === 'id' || key === 'schemas') return true;
      const name = key.toLowerCase();
      return wanted.size > 0 ? wanted.has(name) : !excluded.has(name);
    }),
  );
}

function listResponse(resources: unknown[], total: number, startIndex: number) {
  return {
    schemas: [SCIM_SCHEMAS.list],
    totalResults: total,
    startIndex,
    itemsPerPage: resources.length,
    Resources: resources,
  };
}

/** The fields of a User Earshot keeps, as they change. */
interface UserChange {
  email?: string;
  firstName?: string;
  lastName?: string;
  externalId?: string | null;
  active?: boolean;
}

function emailOf(userName: unknown): string {
  const parsed = Email.safeParse(userName);
  if (!parsed.success) throw invalidValue('userName must be the person’s e-mail address');
  return parsed.data;
}

function activeOf(value: unknown): boolean {
  const parsed = ScimBoolean.safeParse(value);
  if (!parsed.success) throw invalidValue('active must be true or false');
  return parsed.data;
}

function nameText(value: unknown, attribute: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.length > 100)
    throw invalidValue(`${attribute} must be text of at most 100 characters`);
  return value.trim() || undefined;
}

/** Names from a User: its name's parts, else its display name split once, else the e-mail's local part. */
function namesOf(body: Pick<ScimUserBody, 'name' | 'displayName'>, email: string) {
  const [first, ...rest] = (body.name?.formatted || body.displayName || '').trim().split(/\s+/);
  return {
    firstName: body.name?.givenName || first || email.split('@')[0]!,
    lastName: body.name?.familyName || rest.join(' '),
  };
}

/** A PATCH path without its schema's URN, lower-case: `name.givenName` → `name.givenname`. */
const pathKey = (path: string) => path.replace(new RegExp(`^${SCIM_SCHEMAS.user}:`, 'i'), '').toLowerCase();

/**
 * One User attribute of a PATCH (by path, or a key of a path-less value as Okta and Entra ID send
 * them, dotted keys included) into the change. Attributes Earshot does not keep are ignored.
 */
function applyUserAttribute(change: UserChange, op: 'add' | 'replace' | 'remove', key: string, value: unknown) {
  if (op === 'remove') {
    if (key === 'externalid') change.externalId = null;
    else if (key === 'active' || key === 'username')
      throw mutability(`${key === 'active' ? 'active' : 'userName'} cannot be removed`);
    return;
  }
  switch (key) {
    case 'active':
      change.active = activeOf(value);
      return;
    case 'username':
      change.email = emailOf(value);
      return;
    case 'externalid':
      if (typeof value !== 'string' || !value.trim() || value.length > 255)
        throw invalidValue('externalId must be text of at most 255 characters');
      change.externalId = value.trim();
      return;
    case 'name.givenname':
      change.firstName = nameText(value, 'name.givenName') ?? change.firstName;
      return;
    case 'name.familyname':
      change.lastName = nameText(value, 'name.familyName') ?? change.lastName;
      return;
    case 'name':
      if (value === null || typeof value !== 'object') throw invalidValue('name must be an object');
      for (const [inner, innerValue] of Object.entries(value))
        applyUserAttribute(change, op, `name.${inner.toLowerCase()}`, innerValue);
      return;
  }
}

/** A group PATCH's member references: `[{value: id}]`. */
function memberIds(value: unknown): string[] {
  const parsed = z.array(z.object({ value: z.string().max(64) }).passthrough()).safeParse(value);
  if (!parsed.success) throw invalidValue('members must be a list of {value: user id}');
  return parsed.data.map((m) => m.value);
}

/** `members[value eq "id"]`, how Okta names the one member it removes. */
const MEMBER_PATH = /^members\[\s*value\s+eq\s+"([^"]+)"\s*\]$/i;

/**
 * SCIM 2.0 (RFC 7643/7644) over a company's people, for the company of the token presented: every
 * change goes through the user service as the token's service account, so the same rules, events
 * and session endings apply as to a change made in the console.
 */
export class ScimService {
  constructor(
    private readonly ctx: AuthContext,
    private readonly users: UserService,
  ) {}

  private location(kind: 'Users' | 'Groups', id: string) {
    return `${consoleAddress(this.ctx.config)}${SCIM_BASE_PATH}/${kind}/${id}`;
  }

  private toUser(row: UserRow) {
    return {
      schemas: [SCIM_SCHEMAS.user],
      id: row.id,
      ...(row.externalId ? { externalId: row.externalId } : {}),
      userName: row.email,
      name: {
        givenName: row.firstName,
        familyName: row.lastName,
        formatted: `${row.firstName} ${row.lastName}`.trim(),
      },
      displayName: `${row.firstName} ${row.lastName}`.trim(),
      emails: [{ value: row.email, type: 'work', primary: true }],
      active: row.status === 'active',
      groups: [{ value: row.role, display: row.role, $ref: this.location('Groups', row.role) }],
      meta: {
        resourceType: 'User',
        created: row.createdAt.toISOString(),
        lastModified: row.updatedAt.toISOString(),
        location: this.location('Users', row.id),
      },
    };
  }

  private async findUser(identity: Identity, id: string): Promise<UserRow> {
    const row = isId(id)
      ? await repo.findUser(this.ctx.db, id, { all: false, companyId: identity.companyId! })
      : undefined;
    if (!row) throw noUser();
    return row;
  }

  async getUser(identity: Identity, id: string, query: Pick<ScimListQuery, 'attributes' | 'excludedAttributes'>) {
    return project(this.toUser(await this.findUser(identity, id)), query);
  }

  async listUsers(identity: Identity, query: ScimListQuery) {
    const filter = parseFilter(query.filter, ['userName', 'externalId', 'id']);
    const where: ScimUserFilter = {};
    if (filter?.attribute === 'userName') where.email = filter.value.toLowerCase();
    if (filter?.attribute === 'externalId') where.externalId = filter.value;
    if (filter?.attribute === 'id' && !isId(filter.value)) return listResponse([], 0, query.startIndex);
    const { rows, total } =
      filter?.attribute === 'id'
        ? await this.findUser(identity, filter.value).then(
            (row) => ({ rows: [row], total: 1 }),
            () => ({ rows: [], total: 0 }),
          )
        : await listScimUsers(this.ctx.db, identity.companyId!, where, {
            offset: query.startIndex - 1,
            limit: Math.min(query.count, SCIM_MAX_PAGE),
          });
    return listResponse(
      rows.map((row) => project(this.toUser(row), query)),
      total,
      query.startIndex,
    );
  }

  /** A new person of the token's company: role USER, no password (they sign in through the company's provider). */
  async createUser(identity: Identity, body: ScimUserBody) {
    const email = emailOf(body.userName);
    const companyId = identity.companyId!;
    const row = await guardUnique(
      this.ctx.transact(async (tx, emit) => {
        await checkCompanyRoom(tx, companyId);
        await checkEmailFree(tx, email, companyId);
        if (body.externalId) await checkExternalIdFree(tx, companyId, body.externalId);
        const user = await repo.insertUser(tx, {
          companyId,
          email,
          ...namesOf(body, email),
          avatar: null,
          role: BASE_ROLE,
          passwordHash: NO_PASSWORD,
          status: body.active === false ? 'disabled' : 'active',
          externalId: body.externalId ?? null,
        });
        emit({
          type: 'user.created',
          companyId,
          actor: actorOf(identity, identity),
          data: { id: user.id, after: userState(user) },
        });
        return user;
      }),
    );
    return this.toUser(row);
  }

  /** PUT: the attributes Earshot keeps become what the body says (an absent `active` keeps the status). */
  async replaceUser(identity: Identity, id: string, body: ScimUserBody) {
    const before = await this.findUser(identity, id);
    const email = emailOf(body.userName);
    return this.change(identity, before, {
      email,
      ...namesOf(body, email),
      externalId: body.externalId ?? null,
      active: body.active,
    });
  }

  async patchUser(identity: Identity, id: string, body: ScimPatchBody) {
    const before = await this.findUser(identity, id);
    const change: UserChange = {};
    for (const { op, path, value } of body.Operations) {
      if (path) applyUserAttribute(change, op, pathKey(path), value);
      else if (value !== null && typeof value === 'object' && !Array.isArray(value))
        for (const [key, inner] of Object.entries(value)) applyUserAttribute(change, op, pathKey(key), inner);
      else throw new ScimError(400, 'An operation without a path needs an object value', 'invalidSyntax');
    }
    return this.change(identity, before, change);
  }

  private async change(identity: Identity, before: UserRow, change: UserChange) {
    const body: UpdateUserBody = {};
    if (change.email !== undefined && change.email !== before.email) body.email = change.email;
    if (change.firstName !== undefined && change.firstName !== before.firstName) body.firstName = change.firstName;
    if (change.lastName !== undefined && change.lastName !== before.lastName) body.lastName = change.lastName;
    if (change.active !== undefined) {
      // Someone still invited stays so when made active (they become active by choosing a password).
      const status = change.active ? (before.status === 'invited' ? undefined : 'active') : 'disabled';
      if (status && status !== before.status) body.status = status;
    }
    const externalId =
      change.externalId !== undefined && change.externalId !== before.externalId ? change.externalId : undefined;
    const after = await this.users.updateUserById(identity, before.id, body, { externalId });
    return this.toUser(after);
  }

  /** Ends the person's sessions and removes the account; their recordings stay with the company. */
  async deleteUser(identity: Identity, id: string): Promise<void> {
    const user = await this.findUser(identity, id);
    await this.users.deleteUserById(identity, user.id);
  }

  // Groups: the company roles ------------------------------------------------------------------

  private async toGroup(identity: Identity, role: GroupRole, withMembers: boolean) {
    const members = withMembers ? await membersWithRole(this.ctx.db, identity.companyId!, role) : [];
    return {
      schemas: [SCIM_SCHEMAS.group],
      id: role,
      displayName: role,
      ...(withMembers
        ? { members: members.map((m) => ({ value: m.id, display: m.email, $ref: this.location('Users', m.id) })) }
        : {}),
      meta: { resourceType: 'Group', location: this.location('Groups', role) },
    };
  }

  private groupOf(id: string): GroupRole {
    if (!isGroup(id)) throw noGroup();
    return id;
  }

  private static wantsMembers(query: Pick<ScimListQuery, 'attributes' | 'excludedAttributes'>) {
    return Object.keys(project({ members: true }, query)).includes('members');
  }

  async getGroup(identity: Identity, id: string, query: Pick<ScimListQuery, 'attributes' | 'excludedAttributes'>) {
    return project(await this.toGroup(identity, this.groupOf(id), ScimService.wantsMembers(query)), query);
  }

  async listGroups(identity: Identity, query: ScimListQuery) {
    const filter = parseFilter(query.filter, ['displayName', 'id']);
    const matching = SCIM_GROUPS.filter((role) => !filter || role === filter.value.toUpperCase());
    const page = matching.slice(query.startIndex - 1, query.startIndex - 1 + query.count);
    const groups = await Promise.all(page.map((role) => this.toGroup(identity, role, ScimService.wantsMembers(query))));
    return listResponse(
      groups.map((group) => project(group, query)),
      matching.length,
      query.startIndex,
    );
  }

  /** The groups exist already (one per role): creating one of them is a conflict, any other is refused. */
  createGroup(body: ScimGroupBody): never {
    const role = body.displayName.toUpperCase();
    if (isGroup(role)) throw new ScimError(409, `The group ${role} exists: add members to it instead`, 'uniqueness');
    throw invalidValue(`Earshot's groups are its roles: ${SCIM_GROUPS.join(', ')}`);
  }

  deleteGroup(id: string): never {
    this.groupOf(id);
    throw mutability('A role’s group cannot be deleted');
  }

  /** PUT: the members listed get the role; for ADMIN and CALLER, members not listed go back to USER. */
  async replaceGroup(identity: Identity, id: string, body: ScimGroupBody) {
    const role = this.groupOf(id);
    if (body.displayName.toUpperCase() !== role) throw mutability('A group’s displayName cannot change');
    await this.setMembers(
      identity,
      role,
      (body.members ?? []).map((m) => m.value),
    );
    return this.toGroup(identity, role, true);
  }

  async patchGroup(identity: Identity, id: string, body: ScimPatchBody) {
    const role = this.groupOf(id);
    for (const { op, path, value } of body.Operations) {
      const key = path?.toLowerCase();
      const single = path ? MEMBER_PATH.exec(path) : null;
      if (single) {
        if (op !== 'remove') throw new ScimError(400, 'Only remove takes a filtered members path', 'invalidPath');
        await this.removeMembers(identity, role, [single[1]!]);
      } else if (key === 'members') {
        if (op === 'add') await this.assign(identity, memberIds(value), role);
        else if (op === 'replace') await this.setMembers(identity, role, memberIds(value));
        else
          await this.removeMembers(
            identity,
            role,
            value === undefined
              ? (await membersWithRole(this.ctx.db, identity.companyId!, role)).map((m) => m.id)
              : memberIds(value),
          );
      } else if (path === undefined && value !== null && typeof value === 'object') {
        // Okta renames by replacing {id, displayName}; Entra ID may send members inside the value.
        const { displayName, members } = value as { displayName?: unknown; members?: unknown };
        if (displayName !== undefined && String(displayName).toUpperCase() !== role)
          throw mutability('A group’s displayName cannot change');
        if (members !== undefined) {
          const ids = memberIds(members);
          if (op === 'add') await this.assign(identity, ids, role);
          else if (op === 'replace') await this.setMembers(identity, role, ids);
          else await this.removeMembers(identity, role, ids);
        }
      } else if (key !== 'displayname' && key !== 'externalid') {
        throw new ScimError(400, `Unknown group attribute: ${path ?? '(none)'}`, 'invalidPath');
      }
    }
    return this.toGroup(identity, role, true);
  }

  /** Each member's role changes through the user service: their sessions end, user.updated tells the rest. */
  private async assign(identity: Identity, ids: readonly string[], role: GroupRole) {
    for (const id of ids) {
      const user = await this.findUser(identity, id).catch(() => {
        throw invalidValue(`members: no user ${id} in this company`);
      });
      if (user.role !== role) await this.users.updateUserById(identity, user.id, { role });
    }
  }

  /** Leaving ADMIN or CALLER is going back to USER; nobody leaves USER but by joining another group. */
  private async removeMembers(identity: Identity, role: GroupRole, ids: readonly string[]) {
    if (role === BASE_ROLE) return;
    const current = new Set((await membersWithRole(this.ctx.db, identity.companyId!, role)).map((m) => m.id));
    await this.assign(
      identity,
      ids.filter((id) => current.has(id)),
      BASE_ROLE,
    );
  }

  private async setMembers(identity: Identity, role: GroupRole, ids: readonly string[]) {
    const keep = new Set(ids);
    // Added first: a new ADMIN joins before an old one leaves, so the company always has one.
    await this.assign(identity, ids, role);
    const leaving = (await membersWithRole(this.ctx.db, identity.companyId!, role))
      .map((m) => m.id)
      .filter((id) => !keep.has(id));
    await this.removeMembers(identity, role, leaving);
  }
}
