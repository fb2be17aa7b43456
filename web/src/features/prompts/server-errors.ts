// The server checks a prompt with the same schema as the form. Its 400 carries the spec's sentence
// as `message` and every problem in `details` by path (`body.expectedFormat.1.options`); an unknown
// variable names no field but concerns the prompt text. This turns the answer into form paths.
import { errorMessage } from '../../lib/api';
import { PROMPT_MESSAGES } from './model';

export interface FieldProblem {
  path: string;
  message: string;
}

export function fieldProblems(error: unknown): FieldProblem[] {
  const data =
    error && typeof error === 'object' && 'data' in error
      ? (error as { data?: { details?: unknown } | null }).data
      : null;
  const details = Array.isArray(data?.details) ? (data.details as Array<{ field?: unknown; message?: unknown }>) : [];
  const problems = details.flatMap((detail) =>
    typeof detail.field === 'string' && typeof detail.message === 'string'
      ? [{ path: detail.field.replace(/^body\.?/, '') || 'root', message: detail.message }]
      : [],
  );
  const message = errorMessage(error);
  if (problems.length === 0 && message?.startsWith(`${PROMPT_MESSAGES.unknownVariable} {{`))
    return [{ path: 'prompt', message }];
  return problems;
}
