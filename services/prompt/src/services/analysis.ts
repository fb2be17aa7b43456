import {
  ANALYSIS_ERROR_CODES,
  ANALYSIS_MESSAGES,
  type AnalysisRunBody,
  type AnalysisRunDto,
  type AnalysisRunStarted,
  type CallMetricsDto,
} from '@earshot/contracts';
import {
  companyScope,
  HttpError,
  notFound,
  spenderOf,
  type CreditGate,
  type Identity,
  type ServiceContext,
} from '@earshot/kit';
import type { PromptConfig } from '../config';
import type { TranscriptRow } from '../db/schema';
import { usableChatModel } from '../repositories/models';
import { findPattern } from '../repositories/patterns';
import { runnableVersions } from '../repositories/prompts';
import * as runsRepo from '../repositories/runs';
import * as transcriptsRepo from '../repositories/transcripts';
import { companyTypes } from './company-types';

/** Runs of one file the list gives at most (newest first). */
const RUNS_LISTED = 200;

const notReady = () =>
  new HttpError(409, ANALYSIS_MESSAGES.transcriptNotReady, ANALYSIS_ERROR_CODES.transcriptNotReady);

export function toRunDto(row: runsRepo.RunWithPrompt): AnalysisRunDto {
  return {
    _id: row.id,
    fileId: row.fileId,
    promptId: row.promptId,
    promptVersion: row.promptVersion,
    promptName: row.promptName,
    expectedFormat: row.expectedFormat,
    patternId: row.patternId,
    status: row.status,
    result: row.status === 'completed' ? row.result : null,
    error: row.error,
    errorCode: row.errorCode,
    model: row.model,
    usage: row.usage,
    progress: row.progress,
    durationMs: row.durationMs,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    actionItems: row.status === 'completed' ? row.actionItems : null,
  };
}

/**
 * Analysis of transcripts: runs of prompts (alone or as a pattern) and call analytics. A file
 * the caller's company cannot see is not found, and so are its runs and metrics; in a b2c
 * company, so is another member's file.
 */
export class AnalysisService {
  constructor(
    private readonly ctx: ServiceContext<PromptConfig>,
    private readonly wake: () => void,
    private readonly credits: CreditGate,
  ) {}

  private async file(identity: Identity, fileId: string): Promise<TranscriptRow> {
    const row = await transcriptsRepo.findFile(
      this.ctx.db,
      fileId,
      companyScope(identity),
      await companyTypes.ownerScope(this.ctx.db, identity),
    );
    if (!row) throw notFound('File');
    return row;
  }

  /**
   * Queues one run per prompt (a prompt, or each prompt of a pattern) with the prompt's version
   * of now. Refused plainly without a chat model: never a made-up result. Refused too (402/409)
   * when the file's company has no credits left, the caller's monthly cap is used or the model
   * has no price: before any run exists, so no provider is called.
   */
  async start(identity: Identity, body: AnalysisRunBody): Promise<AnalysisRunStarted> {
    const file = await this.file(identity, body.fileId);
    if (!transcriptsRepo.isReady(file)) throw notReady();
    // Whose prompts: the file's company's and the caller's own; the platform administrator runs any.
    const audience =
      identity.role === 'HOST_ADMIN' ? undefined : { companyId: file.companyId, userId: identity.userId };
    let promptIds: string[];
    let patternId: string | null = null;
    if (body.patternId) {
      const pattern = await findPattern(this.ctx.db, body.patternId);
      if (!pattern || (pattern.companyId !== null && pattern.companyId !== file.companyId)) throw notFound('Pattern');
      promptIds = pattern.promptIds;
      patternId = pattern.id;
    } else {
      promptIds = [body.promptId!];
    }
    const [versions, chat] = await Promise.all([
      runnableVersions(this.ctx.db, promptIds, audience),
      usableChatModel(this.ctx.db),
    ]);
    const runnable = promptIds.filter((id) => versions.has(id));
    if (runnable.length === 0) throw notFound('Prompt');
    if (!chat) throw new HttpError(409, ANALYSIS_MESSAGES.noChatModel, ANALYSIS_ERROR_CODES.noChatModel);
    await this.credits.assertCanSpend({
      companyId: file.companyId,
      userId: spenderOf(identity),
      feature: 'analysis',
      modelId: chat.id,
    });
    const runs = await this.ctx.transact((tx) =>
      runsRepo.insertRuns(
        tx,
        runnable.map((promptId) => ({
          companyId: file.companyId,
          fileId: file.fileId,
          promptId,
          promptVersion: versions.get(promptId)!,
          patternId,
          status: 'pending' as const,
          requestedBy: identity.userId,
        })),
      ),
    );
    this.wake();
    return {
      _id: runs[0]!.id,
      status: 'pending',
      runs: runs.map((r) => ({ _id: r.id, promptId: r.promptId, status: 'pending' as const })),
    };
  }

  async list(identity: Identity, fileId: string): Promise<AnalysisRunDto[]> {
    await this.file(identity, fileId);
    return (await runsRepo.listRuns(this.ctx.db, fileId, RUNS_LISTED)).map(toRunDto);
  }

  /** Deletes a run (a running one ends unrecorded; its tokens are still counted by its event). */
  async remove(identity: Identity, runId: string): Promise<{ message: string }> {
    const run = await runsRepo.findRun(
      this.ctx.db,
      runId,
      companyScope(identity),
      await companyTypes.ownerScope(this.ctx.db, identity),
    );
    if (!run) throw notFound('Analysis');
    await this.ctx.transact((tx) => runsRepo.deleteRun(tx, runId));
    return { message: ANALYSIS_MESSAGES.deleted };
  }

  /** Call analytics, as computed when the text became whole or last changed (a word edit). */
  async metrics(identity: Identity, fileId: string): Promise<CallMetricsDto> {
    const { metrics } = await this.file(identity, fileId);
    if (!metrics) throw notReady();
    return metrics;
  }
}
