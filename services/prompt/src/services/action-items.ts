import { z } from 'zod';
import {
  ACTION_ITEMS_PROMPT_ID,
  ActionItems,
  type ActionItem,
  type AnalysisResult,
  type FormatFieldDto,
  type PromptBody,
} from '@earshot/contracts';
import { conflict, type Migration } from '@earshot/kit';
import type { PromptRow } from '../db/schema';
import { fieldsOf, formatInstructions, resultJsonSchema, resultSchema } from './format';

/**
 * The built-in "Action items" analysis: a system prompt, seeded with a fixed id, whose
 * answer is a list of follow-ups `{title, owner?, due?}` rather than one value per field. Its
 * stored result is the number of items (so scorecards can chart it like any integer field), the
 * items themselves are kept on the run and announced as analysis.action_items_proposed for the
 * tasks service. The answer's format lives here in code: editing the prompt's text cannot change it.
 */

export const ACTION_ITEMS_FORMAT: FormatFieldDto[] = [
  { name: 'count', type: 'integer', description: 'How many action items the call has', range: '0-50' },
];

const PROMPT = [
  'List the follow-ups agreed or promised in this call: things someone has to do after it.',
  'For each, give a short imperative title (at most 200 characters), the owner as the name said in the call',
  '(null when nobody was named) and the due date as YYYY-MM-DD when a day was said (null otherwise;',
  'the call was recorded on {{recording.date}}, so "Friday" or "tomorrow" are counted from that day).',
  'Leave out small talk and things already done during the call. An empty list is a valid answer.',
  '',
  '{{transcript}}',
].join('\n');

const BUILT_IN = {
  name: 'Action items',
  description: 'Follow-ups from the call (title, owner, due date), which people then turn into tasks',
  prompt: PROMPT,
  type: 'custom' as const,
};

/** Seeds the prompt and its first version once, and gives runs a place for the items. */
export const actionItemsMigration: Migration = {
  name: '0009_action_items',
  sql: `
    alter table analysis_runs add column action_items jsonb;
    insert into prompts (id, name, description, prompt, type, expected_format, scope, is_global, version)
      values ('${ACTION_ITEMS_PROMPT_ID}', $$${BUILT_IN.name}$$, $$${BUILT_IN.description}$$, $$${BUILT_IN.prompt}$$, '${BUILT_IN.type}',
              '${JSON.stringify(ACTION_ITEMS_FORMAT)}'::jsonb, 'system', true, 1)
      on conflict (id) do nothing;
    insert into prompt_versions (prompt_id, version, name, description, prompt, type, expected_format)
      select id, version, name, description, prompt, type, expected_format from prompts where id = '${ACTION_ITEMS_PROMPT_ID}'
      on conflict do nothing;`,
};

/** What a completed run keeps: the typed result and, for the Action items prompt, its items. */
export interface Answer {
  result: AnalysisResult;
  actionItems: ActionItem[] | null;
}

/** How an answer is asked for and checked (see StructuredAsker), and what the run keeps of it. */
export interface AnswerShape<T> {
  schema: z.ZodType<T>;
  jsonSchema: Record<string, unknown>;
  instructions: string;
  toAnswer(value: T): Answer;
}

const ACTION_ITEMS_ANSWER = z.object({ items: ActionItems }).strict();

const actionItemsShape: AnswerShape<z.infer<typeof ACTION_ITEMS_ANSWER>> = {
  schema: ACTION_ITEMS_ANSWER,
  // Strict structured outputs want every key required: owner and due are required but nullable.
  jsonSchema: {
    type: 'object',
    properties: {
      items: {
        type: 'array',
        maxItems: 50,
        items: {
          type: 'object',
          properties: {
            title: { type: 'string', description: 'What to do, as a short imperative sentence' },
            owner: { type: ['string', 'null'], description: 'Who does it, as named in the call' },
            due: { type: ['string', 'null'], description: 'By when, as YYYY-MM-DD' },
          },
          required: ['title', 'owner', 'due'],
          additionalProperties: false,
        },
      },
    },
    required: ['items'],
    additionalProperties: false,
  },
  instructions: [
    'Answer with one JSON object and nothing else: {"items": [{"title": "...", "owner": "..." or null, "due": "YYYY-MM-DD" or null}, ...]}',
    '- "items": at most 50 follow-ups; an empty list when there are none.',
    '- "title": what to do, at most 200 characters. "owner": the person\'s name as said, at most 120 characters. "due": a day as YYYY-MM-DD.',
  ].join('\n'),
  toAnswer: ({ items }) => ({ result: { count: items.length }, actionItems: items }),
};

/** The shape of a prompt's answer: the Action items list for the built-in prompt, one value per field otherwise. */
export function answerShapeFor(promptId: string, expectedFormat: readonly FormatFieldDto[]): AnswerShape<unknown> {
  if (promptId === ACTION_ITEMS_PROMPT_ID) return actionItemsShape as AnswerShape<unknown>;
  const fields = fieldsOf(expectedFormat);
  return {
    schema: resultSchema(fields),
    jsonSchema: resultJsonSchema(fields),
    instructions: formatInstructions(fields),
    toAnswer: (value) => ({ result: value as AnalysisResult, actionItems: null }),
  };
}

const fieldsKey = (fields: readonly FormatFieldDto[]) =>
  JSON.stringify(fields.map((f) => [f.name, f.type, f.range, f.options, f.description]));

const KEPT = 'is fixed for the built-in Action items prompt (its answers become tasks)';

/**
 * The built-in prompt may be reworded (its text and description: the answer's format is the
 * code's), never deleted, renamed, narrowed to some companies or given another type or format.
 */
export function assertBuiltInKept(
  before: PromptRow,
  next: Pick<PromptBody, 'name' | 'type' | 'scope' | 'isGlobal' | 'companies' | 'users'> & {
    expectedFormat: FormatFieldDto[];
  },
): void {
  if (before.id !== ACTION_ITEMS_PROMPT_ID) return;
  const changed = [
    next.name !== before.name && 'name',
    next.type !== before.type && 'type',
    next.scope !== before.scope && 'scope',
    next.isGlobal !== true && 'isGlobal',
    (next.companies.length > 0 || next.users.length > 0) && 'companies',
    fieldsKey(next.expectedFormat) !== fieldsKey(ACTION_ITEMS_FORMAT) && 'expectedFormat',
  ].filter((field): field is string => typeof field === 'string');
  if (changed.length > 0)
    throw conflict(
      `${changed.map((f) => `body.${f}`).join(', ')} ${KEPT}`,
      changed.map((field) => ({ field: `body.${field}`, message: KEPT })),
    );
}

export function assertNotBuiltIn(id: string): void {
  if (id === ACTION_ITEMS_PROMPT_ID)
    throw conflict('The built-in Action items prompt cannot be deleted (its answers become tasks)');
}
