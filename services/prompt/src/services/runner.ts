import type OpenAI from 'openai';
import { ANALYSIS_ERROR_CODES, ANALYSIS_MESSAGES, MESSAGES, type AnalysisUsage } from '@earshot/contracts';
import { describeProviderError, outboundPolicy, providerClient } from '@earshot/ai';
import { HttpError, type CreditGate, type NewEvent, type ServiceContext } from '@earshot/kit';
import type { PromptConfig } from '../config';
import type { RunRow } from '../db/schema';
import { usableChatModel } from '../repositories/models';
import { findVersion } from '../repositories/prompts';
import * as runsRepo from '../repositories/runs';
import * as transcriptsRepo from '../repositories/transcripts';
import { answerShapeFor, type Answer } from './action-items';
import { AnalysisFailure, StructuredAsker } from './analyst';
import { encryptionOf } from './encryption';
import { fillPrompt, splitLines, type RecordingFacts } from './prompt-text';
import { openedSegments } from './transcripts';
import type { ProviderService } from './providers';

const CHARS_PER_TOKEN = 4;
/** Room kept in a model's context for the instructions and the answer. */
const ANSWER_TOKENS = 1_024;
/** Parts are never cut smaller than this, however small the context. */
const MIN_PART_CHARS = 2_000;
/** A failure reason is kept (and sent on its event) up to this long. */
const ERROR_MAX = 1_000;

/** The events of a run that ended (credits charge from them). */
export function outcomeEvent(run: RunRow): NewEvent {
  const data = {
    id: run.id,
    fileId: run.fileId,
    promptId: run.promptId,
    promptVersion: run.promptVersion,
    patternId: run.patternId,
    model: run.model,
    modelId: run.modelId,
    usage: run.usage,
    durationMs: run.durationMs ?? 0,
    userId: run.requestedBy,
  };
  const actor = { type: 'system', id: null } as const;
  return run.status === 'completed'
    ? { type: 'analysis.completed', companyId: run.companyId, actor, data }
    : { type: 'analysis.failed', companyId: run.companyId, actor, data: { ...data, reason: run.error ?? '' } };
}

/** Characters of transcript one request may carry for a model of `contextTokens`. */
export function partBudget(contextTokens: number, fixedChars: number): number {
  const reserve = Math.min(ANSWER_TOKENS, Math.floor(contextTokens / 4));
  return Math.max(MIN_PART_CHARS, Math.floor((contextTokens - reserve) * CHARS_PER_TOKEN * 0.9) - fixedChars);
}

/** Works one claimed run to its end: completed with a valid result, or failed with a reason. */
export class AnalysisRunner {
  constructor(
    private readonly ctx: ServiceContext<PromptConfig>,
    private readonly providers: ProviderService,
    private readonly credits: CreditGate,
  ) {}

  /**
   * A run made by a pattern on its own (a transcript completed, a client linked) was never asked
   * for by anyone, so no request could be refused: it asks here, before the provider is called,
   * and a refusal fails the run with the refusal's message. A run someone asked for passed the
   * same check when it was asked for, and is not stopped now.
   */
  private async mayRun(run: RunRow, modelId: string): Promise<void> {
    if (run.sourceEventId === null) return;
    try {
      await this.credits.assertCanSpend({ companyId: run.companyId, userId: null, feature: 'analysis', modelId });
    } catch (error) {
      if (error instanceof HttpError) throw new AnalysisFailure(error.message, error.code);
      throw error;
    }
  }

  async work(run: RunRow): Promise<void> {
    const started = Date.now();
    const usage: AnalysisUsage = { inputTokens: 0, outputTokens: 0 };
    let model: string | null = null;
    let modelId: string | null = null;
    let outcome: { answer: Answer } | { error: string; code: string | null };
    try {
      const chat = await usableChatModel(this.ctx.db);
      if (!chat) throw new AnalysisFailure(ANALYSIS_MESSAGES.noChatModel, ANALYSIS_ERROR_CODES.noChatModel);
      modelId = chat.id;
      await this.mayRun(run, chat.id);
      model = chat.label;
      const client = await providerClient(
        await this.providers.endpoint(chat.providerId),
        outboundPolicy(this.ctx.config),
        this.ctx.config.AI_TIMEOUT_MS,
      );
      outcome = { answer: await this.analyse(run, chat, client, usage) };
    } catch (error) {
      if (error instanceof AnalysisFailure) {
        outcome = { error: error.message, code: error.code };
      } else if (model !== null) {
        outcome = { error: describeProviderError(error), code: null };
      } else {
        this.ctx.logger.error({ err: error, runId: run.id }, 'analysis run failed unexpectedly');
        outcome = { error: MESSAGES.internal, code: null };
      }
    }
    await this.finish(run, { model, modelId }, usage, Date.now() - started, outcome);
  }

  private async analyse(
    run: RunRow,
    chat: { id: string; name: string; label: string; contextSize: number | null },
    client: OpenAI,
    usage: AnalysisUsage,
  ): Promise<Answer> {
    const { db } = this.ctx;
    const [version, file, segments, language] = await Promise.all([
      findVersion(db, run.promptId, run.promptVersion),
      transcriptsRepo.findFile(db, run.fileId, run.companyId),
      // The copy's text may be stored sealed: the prompt gets it opened.
      openedSegments(db, encryptionOf(this.ctx), run),
      transcriptsRepo.companyLanguage(db, run.companyId),
    ]);
    if (!version || !file)
      throw new AnalysisFailure('The prompt version or the transcript of this run no longer exists');
    if (segments.length === 0) throw new AnalysisFailure(ANALYSIS_MESSAGES.noTranscriptText);
    const facts: RecordingFacts = {
      fileName: file.fileName,
      speakers: [...new Set(segments.map((s) => s.speaker))],
      clientName: await transcriptsRepo.clientName(db, file.clientId),
      recordedAt: file.recordedAt,
      duration: file.duration,
      language,
    };
    const shape = answerShapeFor(run.promptId, version.expectedFormat);
    const asker = new StructuredAsker(client, chat, shape, usage);
    const budget = partBudget(
      chat.contextSize ?? this.ctx.config.ANALYSIS_CONTEXT_TOKENS,
      fillPrompt(version.prompt, '', facts).length + 2_000,
    );
    const parts = splitLines(segments, budget);
    // A transcript that fits at once gets its model and progress with its end state (one write less).
    if (parts.length === 1) return shape.toAnswer(await asker.ask(fillPrompt(version.prompt, parts[0]!, facts)));
    await runsRepo.updateRun(db, run.id, {
      model: chat.label,
      modelId: chat.id,
      progress: { done: 0, total: parts.length },
    });
    const partials: unknown[] = [];
    for (const [i, part] of parts.entries()) {
      const header = `(Part ${i + 1} of ${parts.length} of the transcript; the other parts are analysed separately.)\n`;
      partials.push(await asker.ask(fillPrompt(version.prompt, header + part, facts)));
      if (i + 1 < parts.length)
        await runsRepo.updateRun(db, run.id, { progress: { done: i + 1, total: parts.length } });
    }
    const results = partials.map((p, i) => `Part ${i + 1}: ${JSON.stringify(p)}`).join('\n');
    const combined =
      `(The transcript was too long to read at once: it was analysed in ${parts.length} parts, in order. ` +
      `Their results follow. Combine them into one answer for the whole recording, in the same format.)\n${results}`;
    return shape.toAnswer(await asker.ask(fillPrompt(version.prompt, combined, facts)));
  }

  /** The run's end state and its events (an Action items run's proposals after its completion), in one transaction. */
  private async finish(
    run: RunRow,
    used: { model: string | null; modelId: string | null },
    usage: AnalysisUsage,
    durationMs: number,
    outcome: { answer: Answer } | { error: string; code: string | null },
  ): Promise<void> {
    const ended =
      'answer' in outcome
        ? {
            status: 'completed' as const,
            result: outcome.answer.result,
            actionItems: outcome.answer.actionItems,
            error: null,
            errorCode: null,
          }
        : {
            status: 'failed' as const,
            result: null,
            actionItems: null,
            error: outcome.error.slice(0, ERROR_MAX),
            errorCode: outcome.code,
          };
    await this.ctx.transact(async (tx, emit) => {
      // A run deleted while it ran stays deleted, but its event is still sent: the tokens were used.
      const row = await runsRepo.finishRun(tx, run.id, { ...ended, ...used, usage, durationMs });
      emit(outcomeEvent(row ?? { ...run, ...ended, ...used, usage, durationMs }));
      if (row && ended.actionItems)
        emit({
          type: 'analysis.action_items_proposed',
          companyId: row.companyId,
          actor: { type: 'system', id: null },
          data: { runId: row.id, fileId: row.fileId, items: ended.actionItems },
        });
    });
  }
}
