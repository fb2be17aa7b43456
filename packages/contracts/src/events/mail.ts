import { z } from 'zod';
import { change, defineEvent } from './envelope';
import { EMAIL_LANGUAGES, EMAIL_TEMPLATE_TYPES } from '../email';

// E-mail belongs to the messaging service, so its facts ride on the messaging topic.
const topic = 'earshot.messaging';

/** A template as the audit log shows it before and after a change (bodies are capped at 60 KB + 30 KB, so before and after fit one event). */
export const EmailTemplateState = z.object({
  type: z.enum(EMAIL_TEMPLATE_TYPES),
  language: z.enum(EMAIL_LANGUAGES),
  companyId: z.string().nullable(),
  subject: z.string(),
  html: z.string(),
  text: z.string(),
});

export const mailEvents = [
  defineEvent({
    type: 'email_template.created',
    version: 1,
    topic,
    description: "A company's own version of an e-mail template was created.",
    data: change(EmailTemplateState),
  }),
  defineEvent({
    type: 'email_template.updated',
    version: 1,
    topic,
    description: 'An e-mail template (a platform default or a company override) was changed.',
    data: change(EmailTemplateState),
  }),
  defineEvent({
    type: 'email_template.deleted',
    version: 1,
    topic,
    description: "A company's own version of an e-mail template was deleted; the platform default applies again.",
    data: change(EmailTemplateState),
  }),
  defineEvent({
    type: 'mail.sent',
    version: 1,
    topic,
    description:
      'An e-mail left Earshot: handed to the SMTP server, or written as an .eml file when no SMTP server is configured.',
    data: z.object({
      id: z.string(),
      type: z.string(),
      to: z.string(),
      transport: z.enum(['smtp', 'file']),
      attempts: z.number().int(),
    }),
  }),
  defineEvent({
    type: 'mail.failed',
    version: 1,
    topic,
    description: 'An e-mail could not be sent after every retry; `reason` is the last error.',
    data: z.object({
      id: z.string(),
      type: z.string(),
      to: z.string(),
      attempts: z.number().int(),
      reason: z.string(),
    }),
  }),
] as const;
