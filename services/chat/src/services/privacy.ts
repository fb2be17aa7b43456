import {
  counted,
  inPages,
  onEraseRequested,
  onExportRequested,
  type ObjectStorage,
  type PageEnd,
  type PrivacyPart,
} from '@earshot/kit';
import * as conversationsRepo from '../repositories/conversations';
import {
  conversationsOfOwner,
  deleteFeedbackOfUser,
  feedbackOfUser,
  forgetUploader,
  lockConversationsOfOwner,
  messagesOf,
} from '../repositories/privacy';

/**
 * The chat service's part of a person's export: a user's conversations with their
 * messages, and the feedback they gave. A client contact has no conversations of their own.
 */
export const chatExportPart = (storage: ObjectStorage) =>
  onExportRequested('chat', storage, (tx, subject, companyId): PrivacyPart => {
    if (subject.kind !== 'user') return { data: { conversations: [] }, counts: { conversations: 0 } };
    const owned = inPages((after: PageEnd | null, limit) =>
      conversationsOfOwner(tx, companyId, subject.id, { after, limit }),
    );
    const given = inPages((after: PageEnd | null, limit) => feedbackOfUser(tx, subject.id, { after, limit }));
    // Each conversation's messages add to one count.
    const counts = { conversations: 0, messages: 0, feedback: 0 };
    return {
      data: {
        conversations: counted(counts, 'conversations', owned, (c) => ({
          id: c.id,
          title: c.title,
          fileId: c.fileId,
          customGptId: c.customGptId,
          createdAt: c.createdAt,
          updatedAt: c.updatedAt,
          messages: counted(
            counts,
            'messages',
            inPages((after: PageEnd | null, limit) => messagesOf(tx, c.id, { after, limit })),
            (m) => ({
              id: m.id,
              role: m.role,
              content: m.content,
              status: m.status,
              model: m.model,
              createdAt: m.createdAt,
            }),
          ),
        })),
        feedback: counted(counts, 'feedback', given, ({ id: _, sortKey: __, ...rating }) => rating),
      },
      counts,
    };
  });

/**
 * The chat service's part of erasing a person. A user's conversations go as their own
 * delete does (the row with its messages and feedback, conversation.deleted), and any rating of
 * theirs left; with recordings kept, the copies of their recordings no longer name them. Whatever
 * the choice, the copies of deleted recordings go with the file service's file.deleted, and a
 * client's links with transcript.client_linked. A client contact has no conversations.
 */
export const chatErasePart = onEraseRequested(
  'chat',
  async (tx, emit, { subject, companyId, recordings, actor }): Promise<Record<string, number>> => {
    if (subject.kind !== 'user') return {};
    const owned = await lockConversationsOfOwner(tx, companyId, subject.id);
    for (const id of owned) {
      await conversationsRepo.remove(tx, id);
      emit({ type: 'conversation.deleted', companyId, actor, data: { id } });
    }
    const counts = { conversationsDeleted: owned.length, feedbackDeleted: await deleteFeedbackOfUser(tx, subject.id) };
    return recordings === 'keep' && companyId
      ? { ...counts, uploadsKept: await forgetUploader(tx, companyId, subject.id) }
      : counts;
  },
);
