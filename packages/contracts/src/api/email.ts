import { z } from 'zod';
import { Id, PageQuery, paginated } from '../common';
import { EMAIL_LANGUAGES, EMAIL_TEMPLATE_TYPES, MAIL_STATUSES } from '../email';

// Control characters other than tab and line breaks have no place in a mail (NUL is refused for
// every field by the kit as well).
// eslint-disable-next-line no-control-regex
const NO_CONTROLS = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/;
// eslint-disable-next-line no-control-regex
const ONE_LINE = /^[^\u0000-\u001f\u007f]*$/;
const Subject = z.string().trim().min(1).max(300).regex(ONE_LINE, 'must be one line');
const Html = z.string().min(1).max(60_000).regex(NO_CONTROLS, 'must not contain control characters');
const Text = z.string().min(1).max(30_000).regex(NO_CONTROLS, 'must not contain control characters');

export const EmailTemplateDto = z.object({
  _id: Id,
  type: z.enum(EMAIL_TEMPLATE_TYPES),
  language: z.enum(EMAIL_LANGUAGES),
  /** null: the platform's default for this type and language. */
  companyId: Id.nullable(),
  subject: z.string(),
  html: z.string(),
  text: z.string(),
  /** The variables this template may use. */
  variables: z.array(z.string()),
  /** A platform default that still has the text shipped with the product. */
  shipped: z.boolean(),
  updatedAt: z.string(),
});
export type EmailTemplateDto = z.infer<typeof EmailTemplateDto>;

export const EmailTemplateListQuery = z
  .object({
    type: z.enum(EMAIL_TEMPLATE_TYPES).optional(),
    language: z.enum(EMAIL_LANGUAGES).optional(),
    /** A company's overrides only; `platform` for the defaults only. */
    companyId: z.union([Id, z.literal('platform')]).optional(),
  })
  .strict();

export const EmailTemplateBody = z.object({ subject: Subject, html: Html, text: Text }).strict();
export type EmailTemplateBody = z.infer<typeof EmailTemplateBody>;

export const EmailOverrideBody = EmailTemplateBody.extend({
  type: z.enum(EMAIL_TEMPLATE_TYPES),
  language: z.enum(EMAIL_LANGUAGES),
  companyId: Id,
}).strict();
export type EmailOverrideBody = z.infer<typeof EmailOverrideBody>;

/** A draft rendered with sample data, for the live preview. */
export const EmailPreviewBody = EmailTemplateBody.extend({
  type: z.enum(EMAIL_TEMPLATE_TYPES),
  companyId: Id.nullable().optional(),
}).strict();
export const RenderedEmailDto = z.object({ subject: z.string(), html: z.string(), text: z.string() });
export type RenderedEmailDto = z.infer<typeof RenderedEmailDto>;

export const OutgoingMailDto = z.object({
  _id: Id,
  companyId: Id.nullable(),
  type: z.string(),
  to: z.string(),
  subject: z.string(),
  status: z.enum(MAIL_STATUSES),
  attempts: z.number().int(),
  error: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
});
export type OutgoingMailDto = z.infer<typeof OutgoingMailDto>;
export const OutgoingMailPage = paginated(OutgoingMailDto).extend({
  /** Whether an SMTP server (SMTP_URL) delivers mail; false: every message is written to a file. */
  smtp: z.boolean(),
});
export const OutgoingMailDetailDto = OutgoingMailDto.extend({
  html: z.string().nullable(),
  text: z.string().nullable(),
});
export type OutgoingMailDetailDto = z.infer<typeof OutgoingMailDetailDto>;
export const OutgoingMailQuery = PageQuery.extend({ status: z.enum(MAIL_STATUSES).optional() }).strict();
export const QueuedMailDto = z.object({ _id: Id, status: z.enum(MAIL_STATUSES) });
export type QueuedMailDto = z.infer<typeof QueuedMailDto>;

/** Which notification mails a person wants (their own; security mails are always sent). */
export const MailPreferencesDto = z.object({ transcriptReady: z.boolean(), transcriptionFailed: z.boolean() });
export type MailPreferencesDto = z.infer<typeof MailPreferencesDto>;
export const MailPreferencesBody = MailPreferencesDto.partial()
  .strict()
  .refine((body) => Object.keys(body).length > 0, 'send at least one preference');
export type MailPreferencesBody = z.infer<typeof MailPreferencesBody>;
