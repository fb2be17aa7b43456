import { onExportRequested, type ObjectStorage, type PrivacyPart } from '@earshot/kit';
import { conversationsOfOwner, feedbackOfUser } from '../repositories/privacy';

/**
 * The chat service's part of a person's export (issue 25): a user's conversations with their
 * messages, and the feedback they gave. A client contact has no conversations of their own.
 */
export const chatExportPart = (storage: ObjectStorage) => onExportRequested('chat', storage, async (tx, subject, companyId): Promise<PrivacyPart> => {
  if (subject.kind !== 'user') return { data: { conversations: [] }, counts: { conversations: 0 } };
  const owned = await conversationsOfOwner(tx, companyId, subject.id);
  const given = await feedbackOfUser(tx, subject.id);
  return {
    data: {
      conversations: owned.map(({ conversation: c, messages }) => ({
        id: c.id, title: c.title, fileId: c.fileId, customGptId: c.customGptId, createdAt: c.createdAt, updatedAt: c.updatedAt,
        messages: messages.map((m) => ({ id: m.id, role: m.role, content: m.content, status: m.status, model: m.model, createdAt: m.createdAt })),
      })),
      feedback: given,
    },
    counts: { conversations: owned.length, messages: owned.reduce((sum, c) => sum + c.messages.length, 0), feedback: given.length },
  };
});
