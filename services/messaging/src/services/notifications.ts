import type { NotificationDto, NotificationPage, NotificationQuery, UnreadDto } from '@earshot/contracts';
import { notFound, type Identity, type ServiceContext } from '@earshot/kit';
import type { NotificationRow } from '../db/schema';
import * as repo from '../repositories/notifications';

function toNotificationDto(row: NotificationRow): NotificationDto {
  return {
    _id: row.id,
    kind: row.kind,
    title: row.title,
    body: row.body,
    link: row.link,
    readAt: row.readAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** In-app notifications (the header's bell): each person sees and marks only their own. */
export class NotificationService {
  constructor(private readonly ctx: ServiceContext) {}

  async list(identity: Identity, query: NotificationQuery): Promise<NotificationPage> {
    const { rows, total, unread } = await repo.notificationPage(
      this.ctx.db,
      identity.userId,
      query.page,
      query.pageSize,
    );
    return {
      items: rows.map(toNotificationDto),
      unread,
      page: query.page,
      pageSize: query.pageSize,
      total,
      totalPages: Math.ceil(total / query.pageSize),
    };
  }

  /** Marks one read; someone else's (or an unknown id) is not found. */
  async markRead(identity: Identity, id: string): Promise<UnreadDto> {
    return this.ctx.transact(async (tx) => {
      if (!(await repo.markRead(tx, identity.userId, id))) throw notFound('Notification');
      return { unread: await repo.unreadCount(tx, identity.userId) };
    });
  }

  async markAllRead(identity: Identity): Promise<UnreadDto> {
    return this.ctx.transact(async (tx) => {
      await repo.markAllRead(tx, identity.userId);
      return { unread: 0 };
    });
  }
}
