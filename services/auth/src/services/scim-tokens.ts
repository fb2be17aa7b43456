import {
  SCIM_ACTOR_PREFIX,
  SCIM_TOKEN_PREFIX,
  SERVICE_ROLE,
  type ScimTokenBody,
  type ScimTokenCreatedDto,
  type ScimTokenDto,
} from '@earshot/contracts';
import { companyScope, notFound, type Identity } from '@earshot/kit';
import type { ScimTokenRow } from '../db/schema';
import { findCompany } from '../repositories/companies';
import { findScimToken, insertScimToken, listScimTokens, revokeScimToken, touchScimToken } from '../repositories/scim';
import { actorOf, type AuthContext } from './context';
import { randomToken, sha256 } from './crypto';
import { BLOCKED_COMPANY_STATUSES } from './sessions';

/** What a token looks like: anything else is refused without a database lookup. */
const TOKEN_SHAPE = new RegExp(`^${SCIM_TOKEN_PREFIX}[A-Za-z0-9_-]{43}$`);

function toDto(row: ScimTokenRow): ScimTokenDto {
  return {
    _id: row.id,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}

/**
 * Who a SCIM request acts as: the token's company's service account, named after the token, so
 * the user service's rules (company scope, roles it may give, the last ADMIN, the user limit) apply
 * unchanged and events and the audit log show which token did it.
 */
export function scimIdentity(token: Pick<ScimTokenRow, 'id' | 'companyId'>, ip: string): Identity {
  const id = `${SCIM_ACTOR_PREFIX}${token.id}`;
  return { userId: id, companyId: token.companyId, role: SERVICE_ROLE, email: '', sessionId: id, via: 'bearer', ip };
}

/** A company's SCIM tokens: created (shown once), listed, revoked; and the check of a presented one. */
export class ScimTokenService {
  constructor(private readonly ctx: AuthContext) {}

  /** The company the caller may manage tokens of: their own, or any for a platform administrator. */
  private async company(identity: Identity, companyId: string): Promise<string> {
    const scoped = companyScope(identity, companyId);
    if (scoped !== companyId || !(await findCompany(this.ctx.db, companyId))) throw notFound('Company');
    return companyId;
  }

  async create(identity: Identity, companyId: string, body: ScimTokenBody): Promise<ScimTokenCreatedDto> {
    await this.company(identity, companyId);
    const token = `${SCIM_TOKEN_PREFIX}${randomToken()}`;
    const row = await this.ctx.transact(async (tx, emit) => {
      const row = await insertScimToken(tx, {
        companyId,
        name: body.name,
        tokenHash: sha256(token),
        // A platform administrator's id is kept too: the list says who made each token.
        createdBy: identity.userId,
      });
      emit({
        type: 'scim_token.created',
        companyId,
        actor: actorOf(identity, identity),
        data: { id: row.id, name: row.name },
      });
      return row;
    });
    return { id: row.id, name: row.name, token };
  }

  async list(identity: Identity, companyId: string): Promise<ScimTokenDto[]> {
    await this.company(identity, companyId);
    return (await listScimTokens(this.ctx.db, companyId)).map(toDto);
  }

  async revoke(identity: Identity, companyId: string, tokenId: string): Promise<void> {
    await this.company(identity, companyId);
    await this.ctx.transact(async (tx, emit) => {
      const row = await revokeScimToken(tx, companyId, tokenId);
      if (!row) throw notFound('SCIM token');
      emit({
        type: 'scim_token.revoked',
        companyId,
        actor: actorOf(identity, identity),
        data: { id: row.id, name: row.name },
      });
    });
  }

  /** The identity of a live token of a company that may work, or null (the caller answers 401). */
  async authenticate(presented: string | undefined, ip: string): Promise<Identity | null> {
    if (!presented || !TOKEN_SHAPE.test(presented)) return null;
    const found = await findScimToken(this.ctx.db, sha256(presented));
    if (!found || BLOCKED_COMPANY_STATUSES.has(found.companyStatus.toLowerCase())) return null;
    await touchScimToken(this.ctx.db, found.token.id);
    return scimIdentity(found.token, ip);
  }
}
