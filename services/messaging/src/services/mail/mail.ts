import { join } from 'node:path';
import {
  EMAIL_TEMPLATE_VARIABLES,
  type EmailLanguage,
  type EmailOverrideBody,
  type EmailTemplateBody,
  type EmailTemplateDto,
  type EmailTemplateType,
  type EventOf,
  type OutgoingMailDetailDto,
  type OutgoingMailDto,
  type QueuedMailDto,
  type RenderedEmailDto,
} from '@earshot/contracts';
import {
  actorOf,
  badRequest,
  conflict,
  consoleAddress,
  notFound,
  secretBox,
  type Db,
  type Identity,
  type SecretBox,
  type ServiceContext,
} from '@earshot/kit';
import type { EmailTemplateRow, MailMessageRow } from '../../db/schema';
import * as directory from '../../repositories/directory';
import * as repo from '../../repositories/mail';
import { formatDay } from '../dates';
import type { MailConfig } from './config';
import { SHIPPED_TEMPLATES } from './defaults';
import { forbiddenMarkup, renderMail, unknownVariables, type Branding, type MailVariables } from './render';
import { MailNotifications } from './notifications';
import type { MailQueue, QueueRequest } from './queue';
import { MailSender, type SealedBody } from './sender';
import { fileTransport, smtpTransport } from './transport';

type MailContext = ServiceContext<MailConfig & ServiceContext['config']>;

const PLATFORM_BRAND = { companyName: 'Earshot', logoUrl: null, primary: '#465fff' };

export function toTemplateDto(row: EmailTemplateRow): EmailTemplateDto {
  const type = row.type as EmailTemplateType;
  return {
    _id: row.id,
    type,
    language: row.language as EmailLanguage,
    companyId: row.companyId,
    subject: row.subject,
    html: row.html,
    text: row.text,
    variables: [...EMAIL_TEMPLATE_VARIABLES[type]],
    shipped: row.shipped,
    updatedAt: row.updatedAt.toISOString(),
  };
}

const toTemplateState = (row: EmailTemplateRow) => ({
  type: row.type as EmailTemplateType,
  language: row.language as EmailLanguage,
  companyId: row.companyId,
  subject: row.subject,
  html: row.html,
  text: row.text,
});

function toMessageDto(row: MailMessageRow): OutgoingMailDto {
  return {
    _id: row.id,
    companyId: row.companyId,
    type: row.type,
    to: row.toAddress,
    subject: row.subject,
    status: row.status,
    attempts: row.attempts,
    error: row.lastError,
    createdAt: row.createdAt.toISOString(),
    sentAt: row.sentAt?.toISOString() ?? null,
    nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
  };
}

/** A template's parts may only name the variables of its type, and its HTML may not carry active content. */
function checkTemplate(type: EmailTemplateType, body: EmailTemplateBody): void {
  for (const field of ['subject', 'html', 'text'] as const) {
    const [unknown] = unknownVariables(type, body[field]);
    if (unknown) {
      const message = `Unknown variable {{${unknown}}}: this template may use ${EMAIL_TEMPLATE_VARIABLES[type].map((name) => `{{${name}}}`).join(', ')}`;
      throw badRequest(message, [{ field: `body.${field}`, message }]);
    }
  }
  const forbidden = forbiddenMarkup(body.html);
  if (forbidden) {
    const message = `E-mail HTML may not contain ${forbidden}`;
    throw badRequest(message, [{ field: 'body.html', message }]);
  }
}

/**
 * E-mail: the templates (platform defaults shipped in four languages, company overrides), the
 * outgoing queue and its sender. Other parts of the service queue mail through `queue` inside the
 * transaction of the fact that causes it, so a message exists exactly when its cause committed.
 */
export class MailService implements MailQueue {
  readonly sender: MailSender;
  readonly notifications: MailNotifications;
  private readonly box: SecretBox;

  constructor(private readonly ctx: MailContext) {
    this.box = secretBox(ctx.config, 'mail');
    const transport = ctx.config.SMTP_URL
      ? smtpTransport(ctx.config.SMTP_URL)
      : fileTransport(join(ctx.config.DATA_DIR, 'mail'));
    this.sender = new MailSender(ctx, transport, this.box);
    this.notifications = new MailNotifications(ctx, this);
  }

  /** Where links and images in a company's mail point (see `consoleAddress`). */
  linkBase(companyDomain: string | null = null): string {
    return consoleAddress(this.ctx.config, companyDomain);
  }

  /** The shipped defaults become the platform templates; an edited one is never overwritten. */
  async seedShipped(): Promise<void> {
    await this.ctx.transact(async (tx) => {
      for (const shipped of SHIPPED_TEMPLATES) {
        const row = await repo.platformTemplate(tx, shipped.type, shipped.language);
        if (!row) await repo.insertTemplate(tx, { ...shipped, companyId: null, shipped: true });
        else if (
          row.shipped &&
          (row.subject !== shipped.subject || row.html !== shipped.html || row.text !== shipped.text)
        ) {
          await repo.updateTemplate(tx, row.id, {
            subject: shipped.subject,
            html: shipped.html,
            text: shipped.text,
            shipped: true,
          });
        }
      }
    });
  }

  async listTemplates(query: {
    type?: EmailTemplateType;
    language?: EmailLanguage;
    companyId?: string;
  }): Promise<EmailTemplateDto[]> {
    const companyId = query.companyId === 'platform' ? null : query.companyId;
    return (await repo.listTemplates(this.ctx.db, { type: query.type, language: query.language, companyId })).map(
      toTemplateDto,
    );
  }

  async getTemplate(id: string): Promise<EmailTemplateDto> {
    const row = await repo.findTemplate(this.ctx.db, id);
    if (!row) throw notFound('Email template');
    return toTemplateDto(row);
  }

  async updateTemplate(identity: Identity, id: string, body: EmailTemplateBody): Promise<EmailTemplateDto> {
    return this.ctx.transact(async (tx, emit) => {
      const before = await repo.findTemplateForUpdate(tx, id);
      if (!before) throw notFound('Email template');
      checkTemplate(before.type as EmailTemplateType, body);
      const after = await repo.updateTemplate(tx, id, { ...body, shipped: false });
      emit({
        type: 'email_template.updated',
        companyId: after.companyId,
        actor: actorOf(identity),
        data: { id, before: toTemplateState(before), after: toTemplateState(after) },
      });
      return toTemplateDto(after);
    });
  }

  async createOverride(identity: Identity, body: EmailOverrideBody): Promise<EmailTemplateDto> {
    checkTemplate(body.type, body);
    return this.ctx.transact(async (tx, emit) => {
      if (!(await directory.findCompany(tx, body.companyId)))
        throw badRequest('Invalid body.companyId: no such company', [
          { field: 'body.companyId', message: 'no such company' },
        ]);
      const existing = await repo.listTemplates(tx, {
        type: body.type,
        language: body.language,
        companyId: body.companyId,
      });
      if (existing.length > 0)
        throw conflict('This company already has its own version of this template in this language: edit it instead', [
          { field: 'body.type', message: 'already overridden' },
        ]);
      const created = await repo.insertTemplate(tx, { ...body, shipped: false });
      emit({
        type: 'email_template.created',
        companyId: created.companyId,
        actor: actorOf(identity),
        data: { id: created.id, before: null, after: toTemplateState(created) },
      });
      return toTemplateDto(created);
    });
  }

  async deleteTemplate(identity: Identity, id: string): Promise<void> {
    await this.ctx.transact(async (tx, emit) => {
      const row = await repo.findTemplateForUpdate(tx, id);
      if (!row) throw notFound('Email template');
      if (row.companyId === null) throw conflict('A platform default cannot be deleted: edit it instead');
      await repo.deleteTemplate(tx, id);
      emit({
        type: 'email_template.deleted',
        companyId: row.companyId,
        actor: actorOf(identity),
        data: { id, before: toTemplateState(row), after: null },
      });
    });
  }

  /** A draft rendered with sample values in the company's (or the platform's) branding. */
  async preview(
    identity: Identity,
    body: EmailTemplateBody & { type: EmailTemplateType; companyId?: string | null },
  ): Promise<RenderedEmailDto> {
    checkTemplate(body.type, body);
    const brand = await this.branding(this.ctx.db, body.companyId ?? null);
    return renderMail(body, this.sampleVariables(identity, brand, 'en'), 'en', brand);
  }

  /** Sends the template, filled with sample values, to the administrator's own address. */
  async sendTest(identity: Identity, id: string): Promise<QueuedMailDto> {
    const template = await repo.findTemplate(this.ctx.db, id);
    if (!template) throw notFound('Email template');
    const queued = await this.ctx.transact(async (tx) => {
      const brand = await this.branding(tx, template.companyId);
      const rendered = await renderMail(
        template,
        this.sampleVariables(identity, brand, template.language),
        template.language as EmailLanguage,
        brand,
      );
      return this.insert(
        tx,
        { companyId: template.companyId, type: template.type, language: template.language, to: identity.email },
        rendered,
      );
    });
    this.sender.nudge();
    return { _id: queued.id, status: queued.status };
  }

  async listMessages(query: { status?: MailMessageRow['status']; page: number; pageSize: number }) {
    const { rows, total } = await repo.listMessages(this.ctx.db, query.status, query.page, query.pageSize);
    return {
      items: rows.map(toMessageDto),
      page: query.page,
      pageSize: query.pageSize,
      total,
      totalPages: Math.ceil(total / query.pageSize),
      // The first-run checklist ticks "set up mail" from this.
      smtp: Boolean(this.ctx.config.SMTP_URL),
    };
  }

  /** One message with its body while Earshot still holds it (queued, failed, or sent to a file). */
  async getMessage(id: string): Promise<OutgoingMailDetailDto> {
    const row = await repo.findMessage(this.ctx.db, id);
    if (!row) throw notFound('Message');
    const body = row.bodySealed ? (JSON.parse(this.box.open(row.bodySealed)) as SealedBody) : null;
    return { ...toMessageDto(row), html: body?.html ?? null, text: body?.text ?? null };
  }

  /**
   * Queues a message in `tx` (the transaction of its cause): picks the most specific template,
   * renders it in the company's branding, and seals the body. Call `sender.nudge()` after commit.
   */
  async queue(tx: Db, request: QueueRequest): Promise<MailMessageRow> {
    const company = request.companyId ? await directory.findCompany(tx, request.companyId) : undefined;
    const language = (request.language ?? company?.language ?? 'en') as EmailLanguage;
    const candidates = await repo.templateCandidates(tx, request.type, language, request.companyId);
    const template =
      candidates.find((t) => t.companyId !== null) ??
      candidates.find((t) => t.language === language) ??
      candidates.find((t) => t.language === 'en');
    if (!template) throw new Error(`No e-mail template for ${request.type}`);
    const brand = await this.branding(tx, request.companyId);
    const link: MailVariables =
      request.path === undefined ? {} : { link: `${this.linkBase(company?.domain ?? null)}${request.path}` };
    const days = Object.fromEntries(
      Object.entries(request.days ?? {}).map(([name, day]) => [name, formatDay(day, template.language)]),
    );
    const variables = { 'company.name': brand.companyName, ...link, ...request.variables, ...days };
    const rendered = await renderMail(template, variables, template.language as EmailLanguage, brand);
    const inbox = request.userId ? { userId: request.userId, link: request.path ?? null, textBody: rendered.text } : {};
    return this.insert(
      tx,
      { companyId: request.companyId, type: request.type, language: template.language, to: request.to, ...inbox },
      rendered,
    );
  }

  /** user.password_reset_requested: the reset mail, in the transaction that records the event. */
  async applyResetRequested(tx: Db, event: EventOf<'user.password_reset_requested'>): Promise<void> {
    // A request from before links were sealed has no deliverable link (and it expired long ago).
    if (!event.data.sealedLink) return;
    await this.queueLink(
      tx,
      event.companyId,
      'password_reset',
      { ...event.data, sealedLink: event.data.sealedLink },
      { expiresInMinutes: event.data.expiresInMinutes },
    );
  }

  /** user.invited: the invitation mail (again when resent), in the transaction that records the event. */
  async applyInvited(tx: Db, event: EventOf<'user.invited'>): Promise<void> {
    await this.queueLink(tx, event.companyId, 'invitation', event.data, { expiresInDays: event.data.expiresInDays });
  }

  /** A mail carrying a link auth sealed for this sender alone, to the person it names. */
  private async queueLink(
    tx: Db,
    companyId: string | null,
    type: 'password_reset' | 'invitation',
    person: { email: string; firstName: string; lastName: string; sealedLink: string },
    extra: MailVariables,
  ): Promise<void> {
    await this.queue(tx, {
      companyId,
      type,
      to: person.email,
      variables: {
        'user.firstName': person.firstName,
        'user.lastName': person.lastName,
        'user.email': person.email,
        link: this.box.open(person.sealedLink),
        ...extra,
      },
    });
  }

  private insert(
    tx: Db,
    head: {
      companyId: string | null;
      type: string;
      language: string;
      to: string;
      userId?: string;
      link?: string | null;
      textBody?: string;
    },
    rendered: { subject: string; html: string; text: string },
  ) {
    const body: SealedBody = { html: rendered.html, text: rendered.text };
    const { to, ...fields } = head;
    return repo.insertMessage(tx, {
      ...fields,
      toAddress: to,
      subject: rendered.subject,
      bodySealed: this.box.seal(JSON.stringify(body)),
    });
  }

  private async branding(db: Db, companyId: string | null): Promise<Branding> {
    const company = companyId ? await directory.findCompany(db, companyId) : undefined;
    if (!company) return PLATFORM_BRAND;
    return {
      companyName: company.name,
      logoUrl: this.absolute(company.logo, company.domain),
      primary: company.theme.primary ?? PLATFORM_BRAND.primary,
    };
  }

  /** Mail clients need absolute http(s) image addresses; inline data images are widely blocked. */
  private absolute(image: string | null, companyDomain: string): string | null {
    if (!image) return null;
    if (image.startsWith('/')) return `${this.linkBase(companyDomain)}${image}`;
    return image.startsWith('https://') ? image : null;
  }

  private sampleVariables(identity: Identity, brand: Branding, language: string): MailVariables {
    const today = formatDay(new Date().toISOString(), language);
    return {
      'user.firstName': 'Ada',
      'user.lastName': 'Lovelace',
      'user.email': identity.email,
      'company.name': brand.companyName,
      link: `${this.linkBase()}/reset-password?token=sample`,
      expiresInMinutes: 30,
      expiresInDays: 7,
      date: today,
      'recording.name': 'call.wav',
      reason: 'the recording has no audible speech',
      'credits.balance': 120,
      'credits.threshold': 200,
      'credits.budget': 10000,
      'task.title': 'Send the quote to the customer',
      'task.dueDate': today,
      assignedBy: 'Grace Hopper',
    };
  }
}
