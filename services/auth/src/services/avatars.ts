import { AVATAR_MAX_BYTES, AVATAR_URL_PREFIX } from '@earshot/contracts';
import { acceptImage, notFound, type Identity } from '@earshot/kit';
import type { UserRow } from '../db/schema';
import * as avatarsRepo from '../repositories/avatars';
import * as repo from '../repositories/users';
import { actorOf, scopeFor, userState, type AuthContext } from './context';
import { ownAccount } from './users';

export interface AvatarImage {
  content: Buffer;
  contentType: string;
}

/**
 * A person's own picture: uploaded (checked by its bytes like company images), replaced, removed.
 * Anyone of the same company may see it (it is drawn beside their name); another company's is 404.
 */
export class AvatarService {
  constructor(private readonly ctx: AuthContext) {}

  async upload(identity: Identity, data: Buffer): Promise<UserRow> {
    const type = await acceptImage(data, AVATAR_MAX_BYTES);
    return this.ctx.transact(async (tx, emit) => {
      const before = await ownAccount(tx, identity, true);
      const storedAt = await avatarsRepo.putAvatar(tx, before.id, data, type.mimeType);
      // The version in the URL makes a new picture a new address, so browsers may cache each for long.
      const after = await repo.updateUser(tx, before.id, {
        avatar: `${AVATAR_URL_PREFIX}${before.id}?v=${storedAt.getTime()}`,
      });
      emit({
        type: 'user.updated',
        companyId: after.companyId,
        actor: actorOf(identity, identity),
        data: { id: after.id, before: userState(before), after: userState(after) },
      });
      return after;
    });
  }

  async remove(identity: Identity): Promise<UserRow> {
    return this.ctx.transact(async (tx, emit) => {
      const before = await ownAccount(tx, identity, true);
      await avatarsRepo.deleteAvatar(tx, before.id);
      const after = await repo.updateUser(tx, before.id, { avatar: null });
      emit({
        type: 'user.updated',
        companyId: after.companyId,
        actor: actorOf(identity, identity),
        data: { id: after.id, before: userState(before), after: userState(after) },
      });
      return after;
    });
  }

  async image(identity: Identity, input: { id: string }): Promise<AvatarImage> {
    const user = await repo.findUser(this.ctx.db, input.id, scopeFor(identity));
    const avatar = user && (await avatarsRepo.findAvatar(this.ctx.db, user.id));
    if (!avatar) throw notFound('Picture');
    return { content: avatar.content, contentType: avatar.contentType };
  }
}
