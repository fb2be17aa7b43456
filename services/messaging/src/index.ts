import {
  createStorage,
  defineService,
  on,
  onCompanyDeleted,
  storageConfigShape,
  type ServiceContext,
  type StorageConfig,
} from '@earshot/kit';
import { migrations } from './db/migrations';
import { messagingMetrics } from './metrics';
import { removeCompany } from './repositories/directory';
import { removeCompanyMail } from './repositories/mail';
import { removeCompanyNotifications, removeUserNotifications } from './repositories/notifications';
import { emailRoutes } from './routes/email';
import { inboxRoutes } from './routes/inbox';
import { notificationRoutes } from './routes/notifications';
import { CreditAlertNotices } from './services/credits/alerts';
import { WebhookDisabledNotices } from './services/webhook-notices';
import { InboxService } from './services/inbox';
import { mailConfigShape, type MailConfig } from './services/mail/config';
import { MailService } from './services/mail/mail';
import { NotificationService } from './services/notifications';
import { companyTypes } from './services/company-types';
import { messagingErasePart, messagingExportPart } from './services/privacy';

type MessagingConfig = ServiceContext['config'] & MailConfig & StorageConfig;
type MessagingContext = ServiceContext<MessagingConfig>;

/** One mail service per mounted context: routes, handlers and the sender share its queue. */
const mailServices = new WeakMap<MessagingContext, MailService>();
export function mailOf(ctx: MessagingContext): MailService {
  let mail = mailServices.get(ctx);
  if (!mail) mailServices.set(ctx, (mail = new MailService(ctx)));
  return mail;
}

const wake = (ctx: MessagingContext) => () => mailOf(ctx).sender.nudge();
const USER_EVENTS = ['user.created', 'user.updated', 'user.deleted'] as const;

/** The messaging service: a person's notifications and inbox, e-mail templates and outgoing mail. See README.md. */
export const messagingService = defineService<MessagingConfig>({
  name: 'messaging',
  schema: 'messaging',
  prefixes: ['/email', '/notifications', '/inbox'],
  migrations,
  // Storage: its part of a person's export is written there.
  configShape: { ...mailConfigShape, ...storageConfigShape },
  async routes(app, ctx) {
    await emailRoutes(app, mailOf(ctx));
    await notificationRoutes(app, new NotificationService(ctx));
    await inboxRoutes(app, new InboxService(ctx));
  },
  // Mail is queued in its cause's own transaction; the sender wakes after commit. Per person and
  // per company, the newest event wins: a late update cannot bring back one deleted after it.
  subscriptions: (ctx) => {
    const notices = mailOf(ctx).notifications;
    const mailing = { afterCommit: wake(ctx) };
    return [
      ...USER_EVENTS.map((type) =>
        on(
          type,
          async (event, tx) => {
            await notices.applyUser(tx, event);
            if (event.type === 'user.deleted') await removeUserNotifications(tx, event.data.id);
          },
          { entity: (event) => event.data.id },
        ),
      ),
      ...(['company.created', 'company.updated'] as const).map((type) =>
        on(type, (event, tx) => notices.applyCompany(tx, event), { entity: (event) => event.data.id }),
      ),
      ...companyTypes.handlers(),
      onCompanyDeleted('messaging', async (tx, companyId) => {
        await removeCompanyMail(tx, companyId);
        await removeCompanyNotifications(tx, companyId);
        await removeCompany(tx, companyId);
      }),
      on('user.password_reset_requested', (event, tx) => mailOf(ctx).applyResetRequested(tx, event), mailing),
      on('user.invited', (event, tx) => mailOf(ctx).applyInvited(tx, event), mailing),
      on('user.two_step_changed', (event, tx) => notices.applyTwoStepChanged(tx, event), mailing),
      on('file.uploaded', (event, tx) => notices.applyFileUploaded(tx, event)),
      on('file.deleted', (event, tx) => notices.applyFileDeleted(tx, event)),
      on('transcript.completed', (event, tx) => notices.applyCompleted(tx, event), mailing),
      on('transcript.status_changed', (event, tx) => notices.applyStatusChanged(tx, event), mailing),
      on('analysis.completed', (event, tx) => notices.applyAnalysisCompleted(tx, event)),
      on('credits.threshold_reached', (event, tx) => new CreditAlertNotices(mailOf(ctx)).apply(tx, event), mailing),
      on('task.created', (event, tx) => notices.applyTaskChanged(tx, event), mailing),
      on('task.updated', (event, tx) => notices.applyTaskChanged(tx, event), mailing),
      on('task.fell_due', (event, tx) => notices.applyFellDue(tx, event), mailing),
      on('webhook_endpoint.disabled', (event, tx) => new WebhookDisabledNotices(mailOf(ctx)).apply(tx, event), mailing),
      // A person's data: their inbox, exported or erased.
      messagingExportPart(createStorage(ctx.config)),
      messagingErasePart,
    ];
  },
  metrics: messagingMetrics,
  async start(ctx) {
    const mail = mailOf(ctx);
    await mail.seedShipped();
    if (ctx.config.MAIL_WORKER) mail.sender.start();
  },
  async stop(ctx) {
    await mailServices.get(ctx)?.sender.stop();
    mailServices.delete(ctx);
  },
});
