import { isId } from '@earshot/contracts';
import {
  counted,
  inPages,
  onEraseRequested,
  onExportRequested,
  type ObjectStorage,
  type PageEnd,
  type PrivacyPart,
} from '@earshot/kit';
import { deleteInbox, forgetUploader, mailOf, notificationsOf } from '../repositories/privacy';

/**
 * The messaging service's part of a person's export: a user's inbox, their in-app
 * notifications and the mail sent to them. A client contact is sent nothing from here.
 */
export const messagingExportPart = (storage: ObjectStorage) =>
  onExportRequested('messaging', storage, (tx, subject, companyId): PrivacyPart => {
    if (subject.kind !== 'user' || !isId(subject.id)) return { data: {}, counts: {} };
    const counts = {};
    const notifications = inPages((after: PageEnd | null, limit) =>
      notificationsOf(tx, companyId, subject.id, { after, limit }),
    );
    const mail = inPages((after: PageEnd | null, limit) => mailOf(tx, companyId, subject.id, { after, limit }));
    return {
      data: {
        notifications: counted(counts, 'notifications', notifications, ({ sortKey: _, ...row }) => row),
        mail: counted(counts, 'mail', mail, ({ sortKey: _, ...row }) => row),
      },
      counts,
    };
  });

/**
 * The messaging service's part of erasing a user: their inbox goes (notifications, the
 * mail sent to them, mail still queued for them, their mail choices); with recordings kept, the
 * copies of their recordings no longer name them. The people directory forgets them with the
 * account's user.deleted.
 */
export const messagingErasePart = onEraseRequested(
  'messaging',
  async (tx, _emit, { subject, companyId, recordings }): Promise<Record<string, number>> => {
    if (subject.kind !== 'user' || !isId(subject.id)) return {};
    const removed = await deleteInbox(tx, companyId, subject.id);
    if (recordings === 'keep' && companyId) await forgetUploader(tx, companyId, subject.id);
    return { notificationsDeleted: removed.notifications, mailDeleted: removed.mail };
  },
);
