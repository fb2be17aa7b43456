import { z } from 'zod';
import { NOTIFICATION_KINDS } from './credits';

// The inbox: a person's own notifications and the e-mails the platform sent them.
// The messaging service answers /api/inbox (and the bell's /api/notifications).

/** A notification's kind, or `email` for a message the platform mailed the person. */
export const INBOX_KINDS = [...NOTIFICATION_KINDS, 'email'] as const;
export type InboxKind = (typeof INBOX_KINDS)[number];

export const InboxItemDto = z.object({
  /** `n-<uuid>` for a notification, `m-<uuid>` for an e-mail: one id space for both. */
  _id: z.string(),
  kind: z.enum(INBOX_KINDS),
  title: z.string(),
  body: z.string(),
  /** A path inside the console (or null). */
  link: z.string().nullable(),
  /**
   * A notification's e-mail about the same event (`m-<uuid>`, opened with GET /api/inbox/{id}): the
   * inbox lists the pair once, as the notification. Absent when no mail went with it.
   */
  emailId: z.string().optional(),
  read: z.boolean(),
  createdAt: z.string(),
});
export type InboxItemDto = z.infer<typeof InboxItemDto>;

export const INBOX_PAGE_SIZE = 30;

/** GET /api/inbox: newest first; `cursor` is the previous page's `nextCursor` (opaque). */
export const InboxQuery = z
  .object({
    cursor: z
      .string()
      .max(200)
      .refine((s) => !s.includes('\u0000'), 'must not contain NUL characters')
      .optional(),
    kind: z.enum(INBOX_KINDS).optional(),
    limit: z.coerce.number().int().min(1).max(100).default(INBOX_PAGE_SIZE),
  })
  .strict();
export type InboxQuery = z.infer<typeof InboxQuery>;
export type InboxQueryInput = z.input<typeof InboxQuery>;

export const InboxPage = z.object({
  items: z.array(InboxItemDto),
  nextCursor: z.string().nullable(),
  unread: z.number().int(),
});
export type InboxPage = z.infer<typeof InboxPage>;

export const InboxParams = z
  .object({ id: z.string().regex(/^[nm]-[0-9a-f-]{36}$/, 'not an inbox message id') })
  .strict();
/** PUT /api/inbox/{id}: read or unread; answers the new unread count. */
export const InboxUpdateBody = z.object({ read: z.boolean() }).strict();
export type InboxUpdateBody = z.infer<typeof InboxUpdateBody>;
