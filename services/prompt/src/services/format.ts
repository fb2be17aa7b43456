import { z } from 'zod';
import { FREE_ANSWER_FIELD, parseRange, type AnalysisResult, type FormatFieldDto } from '@earshot/contracts';

/** A prompt without an expected format answers in one string field (`answer`). */
export function fieldsOf(expectedFormat: readonly FormatFieldDto[]): FormatFieldDto[] {
  return expectedFormat.length > 0 ? [...expectedFormat] : [{ ...FREE_ANSWER_FIELD }];
}

type JsonSchema = Record<string, unknown>;

function fieldJsonSchema(field: FormatFieldDto): JsonSchema {
  const range = field.range ? parseRange(field.range) : null;
  switch (field.type) {
    case 'integer':
      return {
        type: 'integer',
        description: field.description,
        ...(range ? { minimum: range.min, maximum: range.max } : {}),
      };
    case 'custom':
      return { type: 'string', description: field.description, enum: field.options ?? [] };
    case 'boolean':
      return { type: 'boolean', description: field.description };
    default:
      return { type: 'string', description: field.description };
  }
}

/** The JSON Schema of a result, as strict structured outputs want it: every field required, nothing else. */
export function resultJsonSchema(fields: readonly FormatFieldDto[]): JsonSchema {
  return {
    type: 'object',
    properties: Object.fromEntries(fields.map((f) => [f.name, fieldJsonSchema(f)])),
    required: fields.map((f) => f.name),
    additionalProperties: false,
  };
}

function fieldZod(field: FormatFieldDto): z.ZodType<string | number | boolean> {
  const range = field.range ? parseRange(field.range) : null;
  switch (field.type) {
    case 'integer': {
      const int = z.number().int();
      return range ? int.min(range.min).max(range.max) : int;
    }
    case 'custom':
      return z.enum(field.options as [string, ...string[]]);
    case 'boolean':
      return z.boolean();
    default:
      return z.string().min(1);
  }
}

/** The zod schema every answer is checked with before it is stored. */
export function resultSchema(fields: readonly FormatFieldDto[]): z.ZodType<AnalysisResult> {
  return z.object(Object.fromEntries(fields.map((f) => [f.name, fieldZod(f)]))).strict();
}

/** How to answer, in words: for models given no schema, and as a reminder for those that are. */
export function formatInstructions(fields: readonly FormatFieldDto[]): string {
  const lines = fields.map((f) => {
    const range = f.range ? parseRange(f.range) : null;
    const kind =
      f.type === 'integer'
        ? `a whole number${range ? ` from ${range.min} to ${range.max}` : ''}`
        : f.type === 'custom'
          ? `exactly one of ${(f.options ?? []).map((o) => JSON.stringify(o)).join(', ')}`
          : f.type === 'boolean'
            ? 'true or false'
            : 'a string';
    return `- "${f.name}": ${kind}. ${f.description}`;
  });
  return ['Answer with one JSON object and nothing else, with exactly these keys:', ...lines].join('\n');
}

export type Checked<T = AnalysisResult> = { ok: true; value: T } | { ok: false; problems: string };

/** Reads a model's answer: JSON (a Markdown code fence around it is tolerated), then the zod schema. */
export function checkAnswer<T>(schema: z.ZodType<T>, content: string): Checked<T> {
  const text = content.trim().replace(/^```(?:json)?\s*([\s\S]*?)\s*```$/i, '$1');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, problems: 'the answer is not a JSON object' };
  }
  const result = schema.safeParse(parsed);
  if (result.success) return { ok: true, value: result.data };
  const problems = result.error.issues
    .map((i) => `${i.path.length ? i.path.join('.') : 'answer'}: ${i.message}`)
    .join('; ');
  return { ok: false, problems };
}
