import {
  isId,
  type InboxItemDto,
  type InboxKind,
  type InboxPage,
  type InboxQuery,
  type UnreadDto,
} from '@earshot/contracts';
import { badRequest, notFound, type Identity, type ServiceContext } from '@earshot/kit';
import * as repo from '../repositories/inbox';

const toItem = (row: repo.InboxRow): InboxItemDto => ({
  _id: row.key,
  kind: row.kind as InboxKind,
  title: row.title,
  body: row.body,
  link: row.link,
  ...(row.emailId ? { emailId: row.emailId } : {}),
  read: row.read,
  createdAt: new Date(row.at).toISOString(),
});

// The cursor is the last row's (timestamp to the microsecond, key): opaque to clients, checked here.
const encodeCursor = (row: repo.InboxRow) => Buffer.from(JSON.stringify([row.at, row.key])).toString('base64url');
const CURSOR_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const KEY = /^[nm]-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function decodeCursor(cursor: string): { at: string; key: string } {
  try {
    const [at, key] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof at === 'string' && typeof key === 'string' && CURSOR_AT.test(at) && KEY.test(key)) return { at, key };
  } catch {
    // Falls through to the refusal below: a cursor this service did not make.
  }
  throw badRequest('Invalid query.cursor: not a cursor from a previous page', [
    { field: 'query.cursor', message: 'not a cursor from a previous page' },
  ]);
}

/** Only ids of the two shapes this service makes reach SQL; any other is simply not found. */
const ownKey = (id: string) => (KEY.test(id) && isId(id.slice(2)) ? id : null);

/**
 * The person's inbox: their notifications and the mail the platform sent them, as one list
 * (see repositories/inbox.ts). Each person sees and marks only their own; another's is not found.
 */
export class InboxService {
  constructor(private readonly ctx: ServiceContext) {}

  async list(identity: Identity, query: InboxQuery): Promise<InboxPage> {
    const after = query.cursor ? decodeCursor(query.cursor) : undefined;
    const [rows, unread] = await Promise.all([
      repo.inboxPage(this.ctx.db, identity.userId, { kind: query.kind, after, limit: query.limit + 1 }),
      repo.unreadCount(this.ctx.db, identity.userId),
    ]);
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return {
      items: page.map(toItem),
      nextCursor: rows.length > query.limit && last ? encodeCursor(last) : null,
      unread,
    };
  }

  async get(identity: Identity, id: string): Promise<InboxItemDto> {
    const key = ownKey(id);
    const row = key ? await repo.findItem(this.ctx.db, identity.userId, key) : undefined;
    if (!row) throw notFound('Message');
    return toItem(row);
  }

  async markAllRead(identity: Identity): Promise<UnreadDto> {
    return this.ctx.transact(async (tx) => {
      await repo.markAllRead(tx, identity.userId);
      return { unread: await repo.unreadCount(tx, identity.userId) };
    });
  }

  async setRead(identity: Identity, id: string, read: boolean): Promise<UnreadDto> {
    const key = ownKey(id);
    return this.ctx.transact(async (tx) => {
      if (!key || !(await repo.setRead(tx, identity.userId, key, read))) throw notFound('Message');
      return { unread: await repo.unreadCount(tx, identity.userId) };
    });
  }
}
