import { and, count, eq, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { mailMessages, notifications } from '../db/schema';

export interface InboxRow {
  /** `n-<uuid>` or `m-<uuid>`. */
  key: string;
  kind: string;
  title: string;
  body: string;
  link: string | null;
  /** A notification's mail about the same event (`m-<uuid>`), while it is the person's to read; else null. */
  emailId: string | null;
  read: boolean;
  /** created_at to the microsecond (ISO, UTC): the keyset's first half, exact where a JS Date is not. */
  at: string;
}

export interface InboxFilter {
  kind?: string;
  /** The last row of the previous page: rows strictly after it in (created_at desc, key desc) order. */
  after?: { at: string; key: string };
  limit: number;
}

const micros = (column: SQL | typeof notifications.createdAt | typeof mailMessages.createdAt) =>
  sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** A mail is the person's from the moment it is queued until it is given up as failed (never sent). */
const mailsOf = (userId: string) => and(eq(mailMessages.userId, userId), ne(mailMessages.status, 'failed'));

/** A mail that went with a notification is that notification's: listed and counted once, as it. */
const unpaired = sql`not exists (select 1 from ${notifications} where ${notifications.mailId} = ${mailMessages.id})`;

/** The notification's mail as an inbox key, when it is one the person may read (not failed). */
const emailKey = sql`(select 'm-' || ${mailMessages.id}::text from ${mailMessages}
  where ${mailMessages.id} = ${notifications.mailId} and ${mailMessages.status} <> 'failed')`;

/**
 * A person's notifications and the mail sent to them that no notification carries, newest first, as
 * one list ordered by (created_at, key) — unique, so equal timestamps never repeat or skip a row
 * across pages. Each half walks its own (user_id, created_at, id) index to at most `limit` rows
 * after the cursor, and only those are merged: a deep page costs what the first does. Within a
 * half, id order is key order (a uuid orders as its text does byte by byte, hence collate "C"); at
 * one instant every `n-` key sorts after every `m-` one.
 */
export async function inboxPage(db: Db, userId: string, filter: InboxFilter): Promise<InboxRow[]> {
  const after = (
    createdAt: typeof notifications.createdAt | typeof mailMessages.createdAt,
    id: typeof notifications.id | typeof mailMessages.id,
    prefix: 'n-' | 'm-',
  ) => {
    if (!filter.after) return sql``;
    const { at, key } = filter.after;
    if (key.startsWith(prefix)) return sql`and (${createdAt}, ${id}) < (${at}::timestamptz, ${key.slice(2)}::uuid)`;
    // The cursor is the other half's: at its instant, notifications ('n-') come before mail ('m-').
    return prefix === 'n-' ? sql`and ${createdAt} < ${at}::timestamptz` : sql`and ${createdAt} <= ${at}::timestamptz`;
  };
  const parts: SQL[] = [];
  if (filter.kind !== 'email') {
    parts.push(sql`select ${'n-'}::text || ${notifications.id}::text as key, ${notifications.kind} as kind, ${notifications.title} as title, ${notifications.body} as body,
      ${notifications.link} as link, ${emailKey} as email_id, ${notifications.readAt} is not null as read, ${notifications.createdAt} as created_at
      from ${notifications} where ${notifications.userId} = ${userId} ${filter.kind ? sql`and ${notifications.kind} = ${filter.kind}` : sql``}
      ${after(notifications.createdAt, notifications.id, 'n-')}
      order by ${notifications.createdAt} desc, ${notifications.id} desc limit ${filter.limit}`);
  }
  if (filter.kind === undefined || filter.kind === 'email') {
    parts.push(sql`select ${'m-'}::text || ${mailMessages.id}::text as key, 'email' as kind, ${mailMessages.subject} as title, coalesce(${mailMessages.textBody}, '') as body,
      ${mailMessages.link} as link, null::text as email_id, ${mailMessages.readAt} is not null as read, ${mailMessages.createdAt} as created_at
      from ${mailMessages} where ${mailsOf(userId)} and ${unpaired} ${after(mailMessages.createdAt, mailMessages.id, 'm-')}
      order by ${mailMessages.createdAt} desc, ${mailMessages.id} desc limit ${filter.limit}`);
  }
  const union = sql.join(
    parts.map((part) => sql`(${part})`),
    sql` union all `,
  );
  const result = (await db.execute(sql`
    select key, kind, title, body, link, email_id as "emailId", read, ${micros(sql`created_at`)} as at
    from (${union}) items order by created_at desc, key collate "C" desc limit ${filter.limit}`)) as unknown as {
    rows: InboxRow[];
  };
  return result.rows;
}

export async function unreadCount(db: Db, userId: string): Promise<number> {
  const [[n], [m]] = await Promise.all([
    db
      .select({ n: count() })
      .from(notifications)
      .where(and(eq(notifications.userId, userId), isNull(notifications.readAt))),
    db
      .select({ n: count() })
      .from(mailMessages)
      .where(and(mailsOf(userId), isNull(mailMessages.readAt), unpaired)),
  ]);
  return (n?.n ?? 0) + (m?.n ?? 0);
}

/**
 * One of the person's messages by its inbox key, or undefined (someone else's is unknown too). A
 * mail a notification carries opens by its own key too: the notification links it.
 */
export async function findItem(db: Db, userId: string, key: string): Promise<InboxRow | undefined> {
  const id = key.slice(2);
  const result = (await db.execute(
    key.startsWith('n-')
      ? sql`select 'n-' || ${notifications.id}::text as key, ${notifications.kind} as kind, ${notifications.title} as title, ${notifications.body} as body,
        ${notifications.link} as link, ${emailKey} as "emailId", ${notifications.readAt} is not null as read, ${micros(notifications.createdAt)} as at
        from ${notifications} where ${notifications.id} = ${id}::uuid and ${notifications.userId} = ${userId}`
      : sql`select 'm-' || ${mailMessages.id}::text as key, 'email' as kind, ${mailMessages.subject} as title, coalesce(${mailMessages.textBody}, '') as body,
        ${mailMessages.link} as link, null as "emailId", ${mailMessages.readAt} is not null as read, ${micros(mailMessages.createdAt)} as at
        from ${mailMessages} where ${mailMessages.id} = ${id}::uuid and ${mailsOf(userId)}`,
  )) as unknown as { rows: InboxRow[] };
  return result.rows[0];
}

/**
 * Marks one of the person's messages read or unread; false when they have no such message. A
 * notification and its mail are one event: marking either marks both.
 */
export async function setRead(tx: Db, userId: string, key: string, read: boolean): Promise<boolean> {
  const id = key.slice(2);
  const notificationReadAt = read ? sql`coalesce(${notifications.readAt}, now())` : null;
  const mailReadAt = read ? sql`coalesce(${mailMessages.readAt}, now())` : null;
  if (key.startsWith('n-')) {
    const rows = await tx
      .update(notifications)
      .set({ readAt: notificationReadAt })
      .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
      .returning({ mailId: notifications.mailId });
    const mailId = rows[0]?.mailId;
    if (mailId)
      await tx
        .update(mailMessages)
        .set({ readAt: mailReadAt })
        .where(and(eq(mailMessages.id, mailId), eq(mailMessages.userId, userId)));
    return rows.length > 0;
  }
  const rows = await tx
    .update(mailMessages)
    .set({ readAt: mailReadAt })
    .where(and(eq(mailMessages.id, id), mailsOf(userId)))
    .returning({ id: mailMessages.id });
  if (rows.length)
    await tx
      .update(notifications)
      .set({ readAt: notificationReadAt })
      .where(and(eq(notifications.mailId, id), eq(notifications.userId, userId)));
  return rows.length > 0;
}

/** Everything in the person's inbox read: notifications and mail alike. */
export async function markAllRead(tx: Db, userId: string): Promise<void> {
  await tx
    .update(notifications)
    .set({ readAt: sql`now()` })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  await tx
    .update(mailMessages)
    .set({ readAt: sql`now()` })
    .where(and(mailsOf(userId), isNull(mailMessages.readAt)));
}
