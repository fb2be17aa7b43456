import { randomUUID } from 'node:crypto';
import {
  BUILT_IN_MODEL_ID,
  CHAT_MESSAGES,
  MESSAGES,
  type AnalysisChatStreamBody,
  type ChatStreamBody,
  type CitationDto,
  type StreamStartEvent,
  type UsageDto,
} from '@earshot/contracts';
import type { AiCatalogue } from '@earshot/ai';
import {
  actorOf,
  badRequest,
  companyScope,
  conflict,
  notFound,
  spenderOf,
  type CreditGate,
  type Identity,
  type ServiceContext,
} from '@earshot/kit';
import type { ChatConfig } from '../config';
import type { ConversationRow, CustomGptRow, MessageRow, MessageStatus } from '../db/schema';
import * as conversationsRepo from '../repositories/conversations';
import * as messagesRepo from '../repositories/messages';
import type { Recording } from '../repositories/recordings';
import { builtInWriter } from './built-in';
import { citedIn, gatherContext } from './context';
import type { ConversationService } from './conversations';
import { gptContext } from './knowledge/gpt-context';
import type { KnowledgeRetrieval } from './knowledge/retrieval';
import { modelWriter } from './model-writer';
import { redactedForCompany, redactedHistory } from './redaction';
import { transcriptCopyOf } from './transcripts';
import type { HistoryMessage, ReplyWriter } from './writer';

/** Of a model's context, what a recording's transcript may take, and what earlier messages may then take. */
const TRANSCRIPT_SHARE = 0.6;
const HISTORY_SHARE_WITH_TRANSCRIPT = 0.25;

const TITLE_MAX = 60;

/** The first words of a message, up to about 60 characters, as a conversation's title. */
export function titleFrom(message: string): string {
  const flat = message.replace(/\s+/g, ' ').trim();
  if (flat.length <= TITLE_MAX) return flat;
  const cut = flat.slice(0, TITLE_MAX);
  const atWord = cut.replace(/\s+\S*$/, '');
  return `${atWord.length >= TITLE_MAX / 2 ? atWord : cut}…`;
}

/** Keeps the newest messages whose text fits the budget (the question always stays). */
export function withinBudget(newestFirst: readonly MessageRow[], maxChars: number): HistoryMessage[] {
  const kept: HistoryMessage[] = [];
  let used = 0;
  for (const m of newestFirst) {
    used += m.content.length;
    if (kept.length > 0 && used > maxChars) break;
    kept.push({ role: m.role, content: m.content });
  }
  return kept.reverse();
}

/** What the stream sends, in order: start, deltas, then done or error. */
export interface ReplySink {
  start(event: StreamStartEvent): void;
  delta(text: string): void;
  done(event: { messageId: string; status: MessageStatus; usage: UsageDto | null; citations: CitationDto[] }): void;
  error(event: { messageId: string | null; message: string }): void;
}

/** A turn that passed every check and holds the conversation's reply mark until it is stored. */
export interface Turn {
  identity: Identity;
  conversationId: string;
  companyId: string | null;
  title: string;
  /** The question as stored and sent: with the company's redaction on, what the detectors found is a label. */
  question: string;
  /** How many spans redaction hid in the question (the person is told). */
  redacted: number;
  /** Whether the company's redaction is on: earlier messages are redacted again before they are sent. */
  redacts: boolean;
  userMessageId: string;
  writer: ReplyWriter;
  /** The recording a bound conversation is about. */
  recording: Recording | null;
  /** The custom GPT a conversation is with. */
  customGpt: CustomGptRow | null;
}

/** Streamed replies: checks, the question's storage, retrieval, the writer and the stored answer. */
export class ReplyService {
  constructor(
    private readonly ctx: ServiceContext<ChatConfig>,
    private readonly catalogue: AiCatalogue,
    private readonly conversations: ConversationService,
    private readonly retrieval: KnowledgeRetrieval,
    private readonly credits: CreditGate,
  ) {}

  /**
   * Who writes a reply: the model asked for (400 when it is not configured), else a GPT's own chat
   * model while it is configured, else the default chat model, else the built-in assistant.
   */
  private async writerFor(modelId: string | undefined, gpt: CustomGptRow | null = null): Promise<ReplyWriter> {
    if (modelId === BUILT_IN_MODEL_ID) return builtInWriter;
    if (modelId === undefined && gpt?.modelId) {
      const own = await this.catalogue.resolve('chat', gpt.modelId);
      if (own) return modelWriter(own, this.ctx.config);
    }
    const resolved = await this.catalogue.resolve('chat', modelId);
    if (resolved) return modelWriter(resolved, this.ctx.config);
    if (modelId !== undefined) throw badRequest(CHAT_MESSAGES.unknownModel, { field: 'body.modelId' });
    return builtInWriter;
  }

  /**
   * A model's reply costs the company credits: with none left, or the person's monthly cap used,
   * or no price for the model, it is refused here (402/409) before anything is stored, streamed or
   * sent to a provider. The built-in assistant is free, and so is the platform's own use (a
   * HOST_ADMIN without a company has no credits to spend). A reply that started streaming always
   * finishes: it is charged in full from its chat_reply.finished event.
   */
  private async mayWrite(identity: Identity, writer: ReplyWriter, withGpt = false): Promise<void> {
    if (writer.builtIn || !identity.companyId) return;
    const feature = withGpt ? 'custom_gpt' : 'chat';
    await this.credits.assertCanSpend({
      companyId: identity.companyId,
      userId: spenderOf(identity),
      feature,
      modelId: writer.modelId,
    });
  }

  /**
   * Everything that can be refused is refused here, before the stream starts: an unknown
   * conversation (404), a custom GPT switched off (403) or gone (404), an unknown model (400), no
   * credits (402) or no price (409), a reply already being written (409).
   */
  async begin(identity: Identity, conversationId: string, body: ChatStreamBody, fileId?: string): Promise<Turn> {
    const owned = await conversationsRepo.findOwned(this.ctx.db, conversationId, identity.userId);
    if (!owned || (fileId !== undefined && owned.fileId !== fileId)) throw notFound('Conversation');
    // A GPT no longer available to the caller cannot go on: 403 once their company switched custom
    // GPTs off, 404 once it is disabled, hidden from them or deleted.
    const customGpt = owned.customGptId ? await this.conversations.customGpt(identity, owned.customGptId) : null;
    const writer = await this.writerFor(body.modelId, customGpt);
    await this.mayWrite(identity, writer, customGpt !== null);
    // A conversation about a recording that was deleted (or is no longer the caller's to see) cannot go on.
    const recording = owned.fileId ? await this.conversations.recording(identity, owned.fileId) : null;
    return this.open(identity, owned, body, { writer, recording, customGpt });
  }

  /**
   * A question about one recording: in the caller's conversation about it, or in a new one bound
   * to it (its `start` event names the conversation). The recording must be one the caller may see.
   */
  async beginAbout(identity: Identity, body: AnalysisChatStreamBody): Promise<Turn> {
    const { fileId, conversationId, ...question } = body;
    if (conversationId) return this.begin(identity, conversationId, question, fileId);
    const recording = await this.conversations.recording(identity, fileId);
    const writer = await this.writerFor(question.modelId);
    // Refused before the conversation is made, so a refusal leaves no empty one behind.
    await this.mayWrite(identity, writer);
    const created = await this.conversations.create(identity, { fileId });
    return this.open(identity, { id: created._id, title: created.title, companyId: identity.companyId }, question, {
      writer,
      recording,
      customGpt: null,
    });
  }

  /** Stores the question in a conversation the caller may write to (checked), once no other reply is being written. */
  private async open(
    identity: Identity,
    owned: Pick<ConversationRow, 'id' | 'title' | 'companyId'>,
    body: ChatStreamBody,
    checked: Pick<Turn, 'writer' | 'recording' | 'customGpt'>,
  ): Promise<Turn> {
    const conversationId = owned.id;
    return this.ctx.transact(async (tx, emit) => {
      if (!(await conversationsRepo.claimReply(tx, conversationId))) throw conflict(CHAT_MESSAGES.busy);
      // Redacted before it is stored, titled or sent to any provider; read in this transaction,
      // so the policy in force when the question is stored applies.
      const companyId = owned.companyId ?? identity.companyId;
      const redaction = await redactedForCompany(tx, companyId, body.message);
      const message = redaction.text;
      let question: MessageRow | null;
      if (body.regenerate) {
        const last = await messagesRepo.last(tx, conversationId);
        if (last?.role === 'assistant') await messagesRepo.remove(tx, last.id);
        question = await messagesRepo.last(tx, conversationId);
        if (!question) throw badRequest('There is no question to answer again', { field: 'body.regenerate' });
        // Regenerating may also correct the question; normally it is sent unchanged.
        if (question.content !== message) await messagesRepo.setContent(tx, question.id, message);
      } else {
        question = await messagesRepo.insert(tx, {
          id: randomUUID(),
          conversationId,
          role: 'user',
          content: message,
          status: 'complete',
        });
      }
      let title = owned.title;
      if (!title && (await conversationsRepo.titleIfUntitled(tx, conversationId, titleFrom(message)))) {
        title = titleFrom(message);
        emit({
          type: 'conversation.renamed',
          companyId: owned.companyId,
          actor: actorOf(identity),
          data: { id: conversationId },
        });
      }
      await conversationsRepo.touch(tx, conversationId);
      return {
        identity,
        conversationId,
        companyId: owned.companyId,
        title,
        question: message,
        redacted: redaction.count,
        redacts: redaction.redacts,
        userMessageId: question.id,
        ...checked,
      };
    });
  }

  private contextTokens(writer: ReplyWriter): number {
    return writer.contextSize ?? this.ctx.config.CHAT_CONTEXT_TOKENS;
  }

  private async history(turn: Turn, withTranscript: boolean): Promise<HistoryMessage[]> {
    const { contextSize } = turn.writer;
    const { CHAT_HISTORY_MESSAGES, CHAT_HISTORY_CHARS } = this.ctx.config;
    const newestFirst = await messagesRepo.latest(this.ctx.db, turn.conversationId, CHAT_HISTORY_MESSAGES + 1);
    // About 4 characters a token: earlier messages may take half of a model's context, or a
    // quarter when a recording's transcript takes most of it.
    const budget = withTranscript
      ? Math.min(CHAT_HISTORY_CHARS, Math.floor(this.contextTokens(turn.writer) * 4 * HISTORY_SHARE_WITH_TRANSCRIPT))
      : contextSize
        ? Math.min(CHAT_HISTORY_CHARS, contextSize * 2)
        : CHAT_HISTORY_CHARS;
    const kept = withinBudget(newestFirst, budget);
    return turn.redacts ? redactedHistory(kept) : kept;
  }

  /** Writes the reply into `sink` and stores it, whatever happens: complete, stopped or failed. */
  async run(turn: Turn, sink: ReplySink, signal: AbortSignal): Promise<void> {
    const { writer } = turn;
    sink.start({
      userMessageId: turn.userMessageId,
      model: writer.model,
      builtIn: writer.builtIn,
      title: turn.title,
      conversationId: turn.conversationId,
      question: turn.question,
      redacted: turn.redacted,
    });
    let content = '';
    let usage: UsageDto | null = null;
    let citations: CitationDto[] = [];
    let status: MessageStatus = 'complete';
    let error: string | null = null;
    let writing = false;
    try {
      // The recordings the caller may search are read only for a question that searches them: a
      // GPT that does not search transcripts needs none.
      const scope = () => this.conversations.scope(turn.identity, turn.identity.companyId);
      const gpt = turn.customGpt
        ? await gptContext(this.ctx.db, this.retrieval, {
            identity: turn.identity,
            gpt: turn.customGpt,
            question: turn.question,
            scope,
            passages: this.ctx.config.CHAT_PASSAGES,
            transcripts: transcriptCopyOf(this.ctx),
          })
        : null;
      const context = gpt
        ? { mode: 'search' as const, passages: gpt.transcripts, recording: null, total: gpt.transcripts.length }
        : await gatherContext(this.ctx.db, {
            question: turn.question,
            scope: await scope(),
            bound: turn.recording,
            builtIn: writer.builtIn,
            passages: this.ctx.config.CHAT_PASSAGES,
            budgetTokens: Math.floor(this.contextTokens(writer) * TRANSCRIPT_SHARE),
            transcripts: transcriptCopyOf(this.ctx),
          });
      const transcript = context.mode === 'whole' || context.mode === 'excerpts';
      const history = writer.usesHistory
        ? await this.history(turn, transcript)
        : [{ role: 'user' as const, content: turn.question }];
      writing = true;
      const pieces = writer.write(
        {
          question: turn.question,
          passages: context.passages,
          mode: context.mode,
          recording: context.recording ? { fileName: context.recording.fileName, total: context.total } : null,
          history,
          // As the scope's company would say (none: every company's transcripts, a HOST_ADMIN's), without reading the scope.
          allCompanies: companyScope(turn.identity, turn.identity.companyId) === null,
          ...(gpt && turn.customGpt
            ? {
                gpt: {
                  id: turn.customGpt.id,
                  name: turn.customGpt.name,
                  instructions: turn.customGpt.instructions,
                  knowledge: gpt.knowledge,
                  texts: gpt.texts,
                },
              }
            : {}),
        },
        signal,
      );
      for (;;) {
        const next = await pieces.next();
        if (next.done) {
          usage = next.value;
          break;
        }
        content += next.value;
        sink.delta(next.value);
      }
      // Given a whole transcript, the sources are the segments the answer cites, not all it was given.
      citations = transcript ? citedIn(content, context.passages) : [...(gpt?.knowledge ?? []), ...context.passages];
      if (signal.aborted) status = 'stopped';
    } catch (failure) {
      if (signal.aborted) {
        status = 'stopped';
      } else {
        status = 'failed';
        // Only the writer's own failures are described; anything else of ours stays generic.
        error = writing ? writer.describeError(failure) : MESSAGES.internal;
        this.ctx.logger.warn(
          { err: failure, conversationId: turn.conversationId, model: writer.model },
          'chat reply failed',
        );
      }
    }
    const messageId = randomUUID();
    try {
      await this.ctx.transact(async (tx, emit) => {
        await messagesRepo.insert(tx, {
          id: messageId,
          conversationId: turn.conversationId,
          role: 'assistant',
          content,
          status,
          model: writer.model,
          providerId: writer.providerId,
          error,
          citations,
          usage,
        });
        await conversationsRepo.touch(tx, turn.conversationId);
        await conversationsRepo.releaseReply(tx, turn.conversationId);
        emit({
          type: 'chat_reply.finished',
          companyId: turn.companyId,
          actor: actorOf(turn.identity),
          data: {
            conversationId: turn.conversationId,
            messageId,
            model: writer.model,
            providerId: writer.providerId,
            modelId: writer.modelId,
            builtIn: writer.builtIn,
            status,
            usage,
            customGptId: turn.customGpt?.id ?? null,
          },
        });
      });
    } catch (failure) {
      // The conversation was deleted meanwhile, or the database failed: free the mark, say so.
      this.ctx.logger.error({ err: failure, conversationId: turn.conversationId }, 'chat reply could not be stored');
      await this.release(turn);
      sink.error({ messageId: null, message: error ?? MESSAGES.internal });
      return;
    }
    if (status === 'failed') sink.error({ messageId, message: error! });
    else sink.done({ messageId, status, usage, citations });
  }

  /** Frees the reply mark of a turn that will not run (the client left before it started). */
  async release(turn: Turn): Promise<void> {
    await this.ctx
      .transact((tx) => conversationsRepo.releaseReply(tx, turn.conversationId))
      .catch((failure: unknown) => {
        this.ctx.logger.error({ err: failure }, 'could not release a reply mark');
      });
  }
}
