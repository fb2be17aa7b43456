import { randomUUID } from 'node:crypto';
import type {
  AnalysisConversations,
  ConversationDto,
  ConversationListQuery,
  CreateConversationBody,
  FeedbackBody,
  MessageDto,
  RenameConversationBody,
} from '@earshot/contracts';
import type { AiCatalogue } from '@earshot/ai';
import { actorOf, badRequest, companyScope, notFound, type Identity, type ServiceContext } from '@earshot/kit';
import type { ConversationRow } from '../db/schema';
import * as conversationsRepo from '../repositories/conversations';
import * as feedbackRepo from '../repositories/feedback';
import * as messagesRepo from '../repositories/messages';
import type { MessageWithFeedback } from '../repositories/messages';
import * as recordingsRepo from '../repositories/recordings';
import type { Recording, RecordingScope } from '../repositories/recordings';
import { companyTypes } from './company-types';
import type { CustomGptService } from './custom-gpts';
import { redactedForCompany } from './redaction';

const CONVERSATION_ABOUT_ONE = 'A conversation is either about a recording or with a custom GPT, not both';

export function toConversation(row: ConversationRow): ConversationDto {
  return {
    _id: row.id,
    title: row.title,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    lastMessageAt: row.lastMessageAt?.toISOString() ?? null,
    fileId: row.fileId,
    customGptId: row.customGptId,
  };
}

function toMessage(row: MessageWithFeedback): MessageDto {
  return {
    _id: row.id,
    conversationId: row.conversationId,
    role: row.role,
    content: row.content,
    status: row.status,
    model: row.model,
    error: row.error,
    citations: row.citations,
    usage: row.usage ?? null,
    feedback: row.rating ? { rating: row.rating, comment: row.comment } : null,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * Conversations, their messages and feedback. A conversation is its owner's alone: every lookup
 * is by owner, so anyone else (a colleague, a company or platform administrator) gets a 404.
 */
export class ConversationService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly catalogue: AiCatalogue,
    private readonly gpts: CustomGptService,
  ) {}

  private async owned(identity: Identity, id: string): Promise<ConversationRow> {
    const row = await conversationsRepo.findOwned(this.ctx.db, id, identity.userId);
    if (!row) throw notFound('Conversation');
    return row;
  }

  async list(identity: Identity, query: ConversationListQuery) {
    const { page, pageSize, search } = query;
    const { rows, total } = await conversationsRepo.listOwned(
      this.ctx.db,
      identity.userId,
      page,
      pageSize,
      search || undefined,
    );
    return { items: rows.map(toConversation), page, pageSize, total, totalPages: Math.ceil(total / pageSize) };
  }

  /**
   * The recordings the caller may chat about: their company's (every company's for a platform
   * administrator); in a b2c company, only the ones they uploaded.
   */
  async scope(identity: Identity, requestedCompany?: string | null): Promise<RecordingScope> {
    return {
      companyId: companyScope(identity, requestedCompany),
      owner: await companyTypes.ownerScope(this.ctx.db, identity),
    };
  }

  /**
   * A recording the caller may chat about: a completed transcript in their scope (any company's
   * for a platform administrator, who may open every transcript). Anything else is a 404.
   */
  async recording(identity: Identity, fileId: string): Promise<Recording> {
    const found = await recordingsRepo.find(this.ctx.db, fileId, await this.scope(identity));
    if (!found) throw notFound('Recording');
    return found;
  }

  /**
   * The custom GPT a conversation is with, while the caller may still chat with it: 403 once the
   * company switched custom GPTs off, 404 once the GPT is disabled, hidden from them or deleted.
   */
  customGpt(identity: Identity, id: string) {
    return this.gpts.chattable(identity, id);
  }

  /** The caller's conversations about one recording, newest first. */
  async aboutRecording(identity: Identity, fileId: string): Promise<AnalysisConversations> {
    const found = await this.recording(identity, fileId);
    const rows = await conversationsRepo.listAboutFile(this.ctx.db, identity.userId, fileId);
    return { transcript: { fileId: found.fileId, fileName: found.fileName }, items: rows.map(toConversation) };
  }

  async create(identity: Identity, body: CreateConversationBody): Promise<ConversationDto> {
    if (body.fileId && body.customGptId)
      throw badRequest(CONVERSATION_ABOUT_ONE, [{ field: 'body.customGptId', message: CONVERSATION_ABOUT_ONE }]);
    if (body.fileId) await this.recording(identity, body.fileId);
    // Only a GPT the caller may chat with (custom GPTs on for their company, enabled, shown to them).
    if (body.customGptId) await this.gpts.chattable(identity, body.customGptId);
    return this.ctx.transact(async (tx, emit) => {
      const row = await conversationsRepo.insert(tx, {
        id: randomUUID(),
        companyId: identity.companyId,
        ownerId: identity.userId,
        title: (await redactedForCompany(tx, identity.companyId, body.title ?? '')).text,
        fileId: body.fileId ?? null,
        customGptId: body.customGptId ?? null,
      });
      emit({ type: 'conversation.created', companyId: row.companyId, actor: actorOf(identity), data: { id: row.id } });
      return toConversation(row);
    });
  }

  async rename(identity: Identity, id: string, body: RenameConversationBody): Promise<ConversationDto> {
    const current = await this.owned(identity, id);
    return this.ctx.transact(async (tx, emit) => {
      const title = (await redactedForCompany(tx, current.companyId, body.title)).text;
      const row = await conversationsRepo.rename(tx, id, title);
      if (current.title !== title)
        emit({ type: 'conversation.renamed', companyId: row.companyId, actor: actorOf(identity), data: { id } });
      return toConversation(row);
    });
  }

  async remove(identity: Identity, id: string): Promise<{ message: string }> {
    const current = await this.owned(identity, id);
    await this.ctx.transact(async (tx, emit) => {
      await conversationsRepo.remove(tx, id);
      emit({ type: 'conversation.deleted', companyId: current.companyId, actor: actorOf(identity), data: { id } });
    });
    return { message: 'Conversation deleted' };
  }

  async messages(identity: Identity, id: string): Promise<{ items: MessageDto[] }> {
    await this.owned(identity, id);
    return { items: (await messagesRepo.listWithFeedback(this.ctx.db, id, identity.userId)).map(toMessage) };
  }

  async models() {
    const models = await this.catalogue.listModels('chat');
    return { models, builtIn: models.length === 0 };
  }

  /** One rating per reply and person; rating again replaces it. Only the owner's replies count. */
  async feedback(identity: Identity, body: FeedbackBody) {
    const message = await messagesRepo.findOwned(this.ctx.db, body.messageId, identity.userId);
    if (!message) throw notFound('Message');
    if (message.role !== 'assistant')
      throw badRequest('Only replies of the assistant can be rated', { field: 'body.messageId' });
    const comment = body.comment || null;
    return this.ctx.transact(async (tx, emit) => {
      const saved = await feedbackRepo.upsert(tx, {
        id: randomUUID(),
        messageId: body.messageId,
        userId: identity.userId,
        rating: body.rating,
        comment,
      });
      emit({
        type: 'chat_feedback.given',
        companyId: message.companyId,
        actor: actorOf(identity),
        data: { id: saved.id, messageId: body.messageId, rating: body.rating, hasComment: comment !== null },
      });
      return {
        _id: saved.id,
        messageId: saved.messageId,
        rating: saved.rating,
        comment: saved.comment,
        updatedAt: saved.updatedAt.toISOString(),
      };
    });
  }
}
