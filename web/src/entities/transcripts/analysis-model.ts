// The analysis page's view of the prompt service's answers, and the rules
// that turn a run into a scorecard, JSON or Markdown. Pure: unit tested in analysis-model.test.ts.
import { ANALYSIS_ERROR_CODES, parseRange, type FormatFieldType } from '@earshot/contracts/constants';
import type {
  AnalysisResult,
  AnalysisRunDto,
  AvailablePromptDto,
  CallMetricsDto,
  PatternDto,
  SpeakerMetricsDto,
} from '@earshot/contracts';

export type AvailablePrompt = AvailablePromptDto;
export type Pattern = PatternDto;
export type FormatField = AvailablePromptDto['expectedFormat'][number];

export type AnalysisRun = AnalysisRunDto;
export type RunStatus = AnalysisRunDto['status'];
export type ResultValue = AnalysisResult[string] | null;
export type SpeakerMetrics = SpeakerMetricsDto;
export type CallMetrics = CallMetricsDto;

/** The error code the prompt service gives a run when no chat model is configured. */
export const NO_CHAT_MODEL = ANALYSIS_ERROR_CODES.noChatModel;
export const RUNS_POLL_MS = 1500;

export const isActive = (run: Pick<AnalysisRun, 'status'>): boolean =>
  run.status === 'pending' || run.status === 'running';

/** One line of a scorecard: how a value shows depends on its field's type. */
export type ScoreEntry =
  | { name: string; description: string; kind: 'integer'; value: number; min: number | null; max: number | null }
  | { name: string; description: string; kind: 'custom'; value: string; options: string[] }
  | { name: string; description: string; kind: 'boolean'; value: boolean }
  | { name: string; description: string; kind: 'string'; value: string };

function kindOf(field: FormatField | undefined, value: ResultValue): FormatFieldType {
  if (field) return field.type;
  if (typeof value === 'number') return 'integer';
  if (typeof value === 'boolean') return 'boolean';
  return 'string';
}

/**
 * The scorecard of a completed run, in the expected format's order (then any other key of the
 * result). The server stores only answers that match the format; a value of another type than its
 * field says so plainly rather than being coerced.
 */
export function scorecard(result: Record<string, ResultValue>, format: readonly FormatField[] = []): ScoreEntry[] {
  const byName = new Map(format.map((field) => [field.name, field]));
  const names = [
    ...format.map((field) => field.name).filter((name) => name in result),
    ...Object.keys(result).filter((name) => !byName.has(name)),
  ];
  return names.map((name) => {
    const field = byName.get(name);
    const value = result[name] ?? null;
    const description = field?.description ?? '';
    const kind = kindOf(field, value);
    if (kind === 'integer' && typeof value === 'number') {
      const range = field?.range ? parseRange(field.range) : null;
      return { name, description, kind, value, min: range?.min ?? null, max: range?.max ?? null };
    }
    if (kind === 'custom' && typeof value === 'string')
      return { name, description, kind, value, options: field?.options ?? [] };
    if (kind === 'boolean' && typeof value === 'boolean') return { name, description, kind, value };
    return { name, description, kind: 'string', value: value === null ? '' : String(value) };
  });
}

/** Where a value sits on its range, 0–1 (for the bar), or null without a range. */
export function rangePosition(entry: { value: number; min: number | null; max: number | null }): number | null {
  if (entry.min === null || entry.max === null || entry.max <= entry.min) return null;
  return Math.min(1, Math.max(0, (entry.value - entry.min) / (entry.max - entry.min)));
}

/** A run as the JSON a person downloads: what was asked, with what, and what came back. */
export function runJson(run: AnalysisRun, promptName: string): string {
  const { _id, promptId, promptVersion, status, result, error, model, usage, createdAt } = run;
  return JSON.stringify(
    { _id, prompt: promptName, promptId, promptVersion, status, result, error, model, usage, createdAt },
    null,
    2,
  );
}

const mdCell = (text: string) => text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

/** A run as Markdown: a heading, where it came from, and its scorecard as a table. */
export function runMarkdown(run: AnalysisRun, promptName: string, format: readonly FormatField[] = []): string {
  const lines = [`# ${promptName} (v${run.promptVersion})`, '', `- Run: ${run.createdAt}`, `- Status: ${run.status}`];
  if (run.model) lines.push(`- Model: ${run.model}`);
  if (run.usage) lines.push(`- Tokens: ${run.usage.inputTokens} in, ${run.usage.outputTokens} out`);
  if (run.error) lines.push('', `Failed: ${run.error}`);
  if (run.result) {
    lines.push('', '| Field | Value |', '| --- | --- |');
    for (const entry of scorecard(run.result, format)) {
      const value =
        entry.kind === 'integer' && entry.max !== null ? `${entry.value} / ${entry.max}` : String(entry.value);
      lines.push(`| ${mdCell(entry.name)} | ${mdCell(value)} |`);
    }
  }
  return `${lines.join('\n')}\n`;
}
