import type { HoldBody, HoldDto } from '@earshot/contracts';
import { actorOf, companyScope, notFound, type Identity, type ServiceContext } from '@earshot/kit';
import type { FileConfig } from '../config';
import type { FileRow } from '../db/schema';
import * as filesRepo from '../repositories/files';
import * as holdsRepo from '../repositories/holds';
import { companyTypes } from './company-types';

export const toHold = (row: Pick<FileRow, 'held' | 'holdReason' | 'holdBy' | 'holdAt'>): HoldDto => ({
  hold: row.held,
  reason: row.holdReason,
  by: row.holdBy,
  at: row.holdAt?.toISOString() ?? null,
});

/**
 * Legal hold on one recording: HOST_ADMIN on any company's, a company's ADMIN on their
 * own (in a b2c company only the files they may see, as everywhere). Placing a hold on a held file,
 * or lifting one that is not held, changes nothing and announces nothing.
 */
export class FileHoldService {
  constructor(private readonly ctx: ServiceContext<FileConfig>) {}

  async set(identity: Identity, id: string, body: HoldBody): Promise<HoldDto> {
    const owner = await companyTypes.ownerScope(this.ctx.db, identity);
    return this.ctx.transact(async (tx, emit) => {
      const file = await filesRepo.lockFile(tx, id, companyScope(identity), owner);
      if (!file) throw notFound('File');
      if (file.held === body.hold) return toHold(file);
      const row = await holdsRepo.setHold(tx, file.id, {
        held: body.hold,
        reason: body.reason,
        by: identity.userId,
        at: new Date(),
      });
      emit({
        type: 'file.hold_changed',
        companyId: file.companyId,
        actor: actorOf(identity),
        data: { id: file.id, hold: body.hold, reason: body.reason },
      });
      return toHold(row);
    });
  }
}
