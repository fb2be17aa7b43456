import { z } from 'zod';
import { ANALYSIS_MESSAGES, ANALYSIS_RUN_STATUSES } from '../constants';
import { Id } from '../common';
import { FormatFieldDto } from './prompts';

/** POST /analysis/transcripts: run one prompt, or every prompt of a pattern (one run per prompt). */
export const AnalysisRunBody = z
  .object({
    fileId: Id,
    promptId: Id.optional(),
    patternId: Id.optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    if ((body.promptId === undefined) === (body.patternId === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['promptId'], message: ANALYSIS_MESSAGES.promptOrPattern });
    }
  });
export type AnalysisRunBody = z.infer<typeof AnalysisRunBody>;

/**
 * 202: the run made (`_id`, `status: 'pending'`); for a pattern, `_id` is its first prompt's run
 * and `runs` lists every run made, in the pattern's order.
 */
export const AnalysisRunStarted = z.object({
  _id: z.string(),
  status: z.literal('pending'),
  runs: z.array(z.object({ _id: z.string(), promptId: z.string(), status: z.literal('pending') })),
});
export type AnalysisRunStarted = z.infer<typeof AnalysisRunStarted>;

/** A typed result: one value per expected-format field (integers as numbers, options as one of them). */
export const AnalysisResult = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));
export type AnalysisResult = z.infer<typeof AnalysisResult>;

export const AnalysisUsage = z.object({ inputTokens: z.number().int(), outputTokens: z.number().int() });
export type AnalysisUsage = z.infer<typeof AnalysisUsage>;

/**
 * One follow-up the built-in "Action items" analysis found in a call (its answer is a list of
 * these, validated like any expected format). `owner` is a name as said in the call; `due` a day.
 */
export const ActionItem = z
  .object({
    title: z.string().trim().min(1).max(200),
    owner: z.string().trim().max(120).nullish(),
    due: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .nullish(),
  })
  .strict();
export type ActionItem = z.infer<typeof ActionItem>;
export const ActionItems = z.array(ActionItem).max(50);
/** The built-in system prompt whose runs answer action items (seeded by the prompt service; its id is fixed). */
export const ACTION_ITEMS_PROMPT_ID = '00000000-0000-4000-8000-00000000a171';

export const AnalysisRunDto = z.object({
  _id: z.string(),
  fileId: z.string(),
  promptId: z.string(),
  promptVersion: z.number().int(),
  /** The prompt's name and expected format as of that version (the scorecard's labels and ranges). */
  promptName: z.string(),
  expectedFormat: z.array(FormatFieldDto),
  /** The pattern that made the run, if any. */
  patternId: z.string().nullable(),
  status: z.enum(ANALYSIS_RUN_STATUSES),
  /** Set only when completed, and always valid against expectedFormat. */
  result: AnalysisResult.nullable(),
  /** Why it failed, in words a person can act on. */
  error: z.string().nullable(),
  /** Set only when it failed for a reason the console turns into an action (NO_CHAT_MODEL). */
  errorCode: z.string().nullable(),
  /** The model's label, once the run started. */
  model: z.string().nullable(),
  usage: AnalysisUsage,
  /** Parts of a long transcript analysed so far; null until they are counted. A completed run: all done (1 of 1 for a transcript that fits at once). */
  progress: z.object({ done: z.number().int(), total: z.number().int() }).nullable(),
  durationMs: z.number().int().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  /** Runs of the "Action items" prompt, once completed: the proposed tasks (POST /api/tasks/from-run/{runId} keeps some). */
  actionItems: ActionItems.nullable().optional(),
});
export type AnalysisRunDto = z.infer<typeof AnalysisRunDto>;

export const AnalysisRunList = z.array(AnalysisRunDto);
export const AnalysisRunQuery = z.object({ fileId: Id }).strict();
export const AnalysisRunParams = z.object({ runId: Id }).strict();
export const AnalysisFileParams = z.object({ fileId: Id }).strict();

/** Call analytics of a completed transcript (seconds; see the prompt service README for each formula). */
export const SpeakerMetricsDto = z.object({
  speakerId: z.string(),
  talkTime: z.number(),
  /** Fraction of all talk time, 0–1: the shares sum to 1. */
  share: z.number(),
  words: z.number().int(),
  wordsPerMinute: z.number(),
  turns: z.number().int(),
  longestMonologue: z.number(),
});
export const CallMetricsDto = z.object({
  duration: z.number(),
  speakers: z.array(SpeakerMetricsDto),
  overlaps: z.object({ count: z.number().int(), total: z.number() }),
  silence: z.object({ total: z.number(), longest: z.number() }),
});
export type CallMetricsDto = z.infer<typeof CallMetricsDto>;
export type SpeakerMetricsDto = z.infer<typeof SpeakerMetricsDto>;
