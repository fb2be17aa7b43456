import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ERROR_RESPONSES,
  EmailOverrideBody,
  EmailPreviewBody,
  EmailTemplateBody,
  EmailTemplateDto,
  EmailTemplateListQuery,
  ErrorBody,
  IdParams,
  MailPreferencesBody,
  MailPreferencesDto,
  MessageBody,
  OutgoingMailDetailDto,
  OutgoingMailPage,
  OutgoingMailQuery,
  QueuedMailDto,
  RenderedEmailDto,
  type Role,
} from '@earshot/contracts';
import { identityOf } from '@earshot/kit';
import type { MailService } from '../services/mail/mail';

const errors = ERROR_RESPONSES;
const tags = ['email'];
/** E-mail templates and the outgoing mail are the platform administrator's. */
const HOST: readonly Role[] = ['HOST_ADMIN'];
/** One's own notification choices: everyone signed in (/profile). */
const EVERYONE: readonly Role[] = ['HOST_ADMIN', 'ADMIN', 'USER', 'CALLER'];
const template = { id: 'emailTemplate' };
const message = { id: 'mailMessage' };
const EXAMPLE = {
  subject: 'Reset your {{company.name}} password',
  html: '<p>Hello {{user.firstName}}</p><p><a href="{{link}}" class="button">Choose a new password</a></p>',
  text: 'Hello {{user.firstName}}: {{link}}',
};

export async function emailRoutes(app: FastifyInstance, mail: MailService): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/email',
    {
      config: { access: HOST },
      schema: {
        tags,
        summary: 'E-mail templates: platform defaults and company overrides',
        querystring: EmailTemplateListQuery,
        response: { 200: z.array(EmailTemplateDto), ...errors },
      },
    },
    async (request) => mail.listTemplates(request.query),
  );

  r.post(
    '/email',
    {
      config: {
        access: HOST,
        example: {
          body: {
            ...EXAMPLE,
            type: 'password_reset',
            language: 'en',
            companyId: '00000000-0000-4000-8000-000000000000',
          },
        },
      },
      schema: {
        tags,
        summary: "A company's own version of a template in one language",
        body: EmailOverrideBody,
        response: { 201: EmailTemplateDto, 409: ErrorBody, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await mail.createOverride(identityOf(request), request.body)),
  );

  r.post(
    '/email/preview',
    {
      config: { access: HOST, example: { body: { ...EXAMPLE, type: 'password_reset' } } },
      schema: {
        tags,
        summary: 'Render a draft with sample values, in the branding it would be sent in',
        body: EmailPreviewBody,
        response: { 200: RenderedEmailDto, ...errors },
      },
    },
    async (request) => mail.preview(identityOf(request), request.body),
  );

  r.get(
    '/email/preferences',
    {
      config: { access: EVERYONE },
      schema: {
        tags,
        summary: 'Which notification mails the caller wants',
        response: { 200: MailPreferencesDto, ...errors },
      },
    },
    async (request) => mail.notifications.preferences(identityOf(request)),
  );

  r.put(
    '/email/preferences',
    {
      config: { access: EVERYONE, example: { body: { transcriptReady: true } } },
      schema: {
        tags,
        summary: 'Turn notification mails on or off (transcript ready, transcription failed)',
        body: MailPreferencesBody,
        response: { 200: MailPreferencesDto, ...errors },
      },
    },
    async (request) => mail.notifications.savePreferences(identityOf(request), request.body),
  );

  r.get(
    '/email/outbox',
    {
      config: { access: HOST },
      schema: {
        tags,
        summary: 'Outgoing mail, newest first, with its status',
        querystring: OutgoingMailQuery,
        response: { 200: OutgoingMailPage, ...errors },
      },
    },
    async (request) => mail.listMessages(request.query),
  );

  r.get(
    '/email/outbox/:id',
    {
      config: { access: HOST, params: message },
      schema: {
        tags,
        summary: 'One outgoing message, with its body while Earshot still holds it',
        params: IdParams,
        response: { 200: OutgoingMailDetailDto, ...errors },
      },
    },
    async (request) => mail.getMessage(request.params.id),
  );

  r.get(
    '/email/:id',
    {
      config: { access: HOST, params: template },
      schema: { tags, summary: 'One template', params: IdParams, response: { 200: EmailTemplateDto, ...errors } },
    },
    async (request) => mail.getTemplate(request.params.id),
  );

  r.put(
    '/email/:id',
    {
      config: { access: HOST, params: template, example: { body: EXAMPLE } },
      schema: {
        tags,
        summary: 'Change a template (an unknown variable is refused, named)',
        params: IdParams,
        body: EmailTemplateBody,
        response: { 200: EmailTemplateDto, ...errors },
      },
    },
    async (request) => mail.updateTemplate(identityOf(request), request.params.id, request.body),
  );

  r.delete(
    '/email/:id',
    {
      config: { access: HOST, params: template },
      schema: {
        tags,
        summary: "Delete a company's own version (platform defaults stay)",
        params: IdParams,
        response: { 200: MessageBody, 409: ErrorBody, ...errors },
      },
    },
    async (request) => {
      await mail.deleteTemplate(identityOf(request), request.params.id);
      return { message: 'Email template deleted' };
    },
  );

  r.post(
    '/email/:id/test',
    {
      config: { access: HOST, params: template },
      schema: {
        tags,
        summary: "Send the template with sample values to the caller's own address",
        params: IdParams,
        response: { 202: QueuedMailDto, ...errors },
      },
    },
    async (request, reply) => reply.code(202).send(await mail.sendTest(identityOf(request), request.params.id)),
  );
}
