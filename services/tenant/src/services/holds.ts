import { HOLD_MESSAGES, type ActiveHoldDto, type HoldBody, type HoldDto } from '@earshot/contracts';
import { actorOf, companyScope, conflict, notFound, type Db, type Identity, type ServiceContext } from '@earshot/kit';
import { findClientForUpdate } from '../repositories/clients';
import { findCompanyForUpdate } from '../repositories/companies';
import * as repo from '../repositories/holds';
import type { HoldState } from '../repositories/holds';
import { assertNotDeleting, assertVisible } from './company-guards';

const toHold = (row: HoldState | undefined): HoldDto =>
  row
    ? { hold: row.held, reason: row.reason, by: row.heldBy, at: row.changedAt.toISOString() }
    : { hold: false, reason: null, by: null, at: null };

/** A hold in force as clients and companies show it; null when there is none. */
export const toActiveHold = (row: HoldState | undefined): ActiveHoldDto | null =>
  row?.held ? { reason: row.reason, by: row.heldBy, at: row.changedAt.toISOString() } : null;

/** 409 when the company is held: nothing of it is deleted, the company itself included. */
export async function assertCompanyNotHeld(tx: Db, companyId: string): Promise<void> {
  if (await repo.companyHeld(tx, companyId)) throw conflict(HOLD_MESSAGES.company);
}

/** 409 when the client or its company is held. */
export async function assertClientNotHeld(tx: Db, companyId: string, clientId: string): Promise<void> {
  await assertCompanyNotHeld(tx, companyId);
  if (await repo.clientHeld(tx, clientId)) throw conflict(HOLD_MESSAGES.clientHeld);
}

/**
 * Legal holds on clients (HOST_ADMIN on any company's, the company's ADMIN on their own) and on
 * whole companies (HOST_ADMIN). The object's row is locked, so a hold and a delete of the same
 * object happen one after the other. Placing a hold on a held object, or lifting one that is not
 * held, changes nothing and announces nothing; otherwise client.hold_changed / company.hold_changed
 * carry the reason, and their actor who.
 */
export class HoldService {
  constructor(private readonly ctx: ServiceContext) {}

  async setClient(identity: Identity, clientId: string, body: HoldBody): Promise<HoldDto> {
    return this.ctx.transact(async (tx, emit) => {
      const client = await findClientForUpdate(tx, clientId, companyScope(identity));
      if (!client) throw notFound('Client');
      const current = await repo.findClientHold(tx, clientId);
      if ((current?.held ?? false) === body.hold) return toHold(current);
      const next = { held: body.hold, reason: body.reason, heldBy: identity.userId, changedAt: new Date() };
      await repo.saveClientHold(tx, { clientId, companyId: client.companyId, ...next });
      emit({
        type: 'client.hold_changed',
        companyId: client.companyId,
        actor: actorOf(identity),
        data: { id: clientId, hold: body.hold, reason: body.reason },
      });
      return toHold(next);
    });
  }

  async setCompany(identity: Identity, companyId: string, body: HoldBody): Promise<HoldDto> {
    assertVisible(identity, companyId);
    return this.ctx.transact(async (tx, emit) => {
      const company = await findCompanyForUpdate(tx, companyId);
      if (!company) throw notFound('Company');
      assertNotDeleting(company);
      const current = await repo.findCompanyHold(tx, companyId);
      if ((current?.held ?? false) === body.hold) return toHold(current);
      const next = { held: body.hold, reason: body.reason, heldBy: identity.userId, changedAt: new Date() };
      await repo.saveCompanyHold(tx, { companyId, ...next });
      emit({
        type: 'company.hold_changed',
        companyId,
        actor: actorOf(identity),
        data: { id: companyId, hold: body.hold, reason: body.reason },
      });
      return toHold(next);
    });
  }
}
