import { notFound, type Identity } from '@earshot/kit';
import type { SessionDto } from '@earshot/contracts';
import { findLiveSession, liveSessions } from '../repositories/sessions';
import { revokeFamily, revokeUserSessions } from '../repositories/tokens';
import { actorOf, type AuthContext, type Caller } from './context';
import { describeDevice } from './devices';
import { announceEnded, recordEnded } from './sessions';
import { ownAccount } from './users';

const SESSION_NOT_FOUND = 'Session';

/**
 * One's own sessions: where each is signed in, and signing out one of them or every other one.
 * An ended session's access token is refused from the next request on (recordEnded + announceEnded,
 * as when an account is disabled), not when it expires.
 */
export class OwnSessionService {
  constructor(private readonly ctx: AuthContext) {}

  async list(identity: Identity): Promise<SessionDto[]> {
    const rows = await liveSessions(this.ctx.db, identity.userId);
    return rows.map((row) => ({
      _id: row.id,
      device: describeDevice(row.userAgent),
      address: row.address,
      lastSeenAt: row.lastSeenAt.toISOString(),
      createdAt: row.createdAt.toISOString(),
      current: row.id === identity.sessionId,
    }));
  }

  /** Signs one of one's sessions out; someone else's (or an ended one) is a 404. */
  async revoke(caller: Caller, identity: Identity, id: string): Promise<void> {
    const { ctx } = this;
    const ended = await ctx.transact(async (tx, emit) => {
      const user = await ownAccount(tx, identity, true);
      if (!(await findLiveSession(tx, user.id, id))) throw notFound(SESSION_NOT_FOUND);
      const actor = actorOf(caller, identity);
      emit({ type: 'user.signed_out', companyId: user.companyId, actor, data: { id: user.id } });
      return recordEnded(ctx, tx, emit, {
        sessionIds: await revokeFamily(tx, id),
        userId: user.id,
        companyId: user.companyId,
        reason: 'signed_out',
        actor,
      });
    });
    announceEnded(ctx, ended);
  }

  /** Signs out everywhere but here; answers how many sessions ended. */
  async revokeOthers(caller: Caller, identity: Identity): Promise<number> {
    const { ctx } = this;
    const ended = await ctx.transact(async (tx, emit) => {
      const user = await ownAccount(tx, identity, true);
      const sessionIds = await revokeUserSessions(tx, user.id, identity.sessionId);
      const actor = actorOf(caller, identity);
      if (sessionIds.length) emit({ type: 'user.signed_out', companyId: user.companyId, actor, data: { id: user.id } });
      return recordEnded(ctx, tx, emit, {
        sessionIds,
        userId: user.id,
        companyId: user.companyId,
        reason: 'signed_out',
        actor,
      });
    });
    announceEnded(ctx, ended);
    return ended.sessionIds.length;
  }
}
