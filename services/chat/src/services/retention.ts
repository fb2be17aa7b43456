import { SYSTEM_ACTOR } from '@earshot/contracts';
import { RetentionJob, RetentionProjection, type ServiceContext } from '@earshot/kit';
import * as conversationsRepo from '../repositories/conversations';
import { lockDueConversations } from '../repositories/retention';

/** Retention policies and company holds, from the tenant's events; migration and handlers join the service's. */
export const retention = new RetentionProjection('chat', ['company']);

/**
 * The daily chats retention: each company with `chatsDays` set loses the conversations
 * last active before its cut-off, as their owner's delete does (the row and its messages and
 * feedback, `conversation.deleted`). Nothing of a held company goes.
 */
export function chatRetention(ctx: ServiceContext): RetentionJob {
  return new RetentionJob(ctx, retention, {
    kind: 'conversations',
    field: 'chatsDays',
    service: 'chat',
    async removeDue(tx, emit, companyId, olderThan, limit) {
      const due = await lockDueConversations(tx, companyId, olderThan, limit);
      for (const conversation of due) {
        await conversationsRepo.remove(tx, conversation.id);
        emit({ type: 'conversation.deleted', companyId, actor: SYSTEM_ACTOR, data: { id: conversation.id } });
      }
      return due.length;
    },
  });
}
