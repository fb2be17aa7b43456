import type OpenAI from 'openai';
import { loadedOpenAI } from '@earshot/ai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { ANALYSIS_MESSAGES, type AnalysisUsage } from '@earshot/contracts';
import type { AnswerShape } from './action-items';
import { checkAnswer } from './format';

/** How a result is asked for, most to least exact; a provider that refuses one gets the next. */
export const OUTPUT_MODES = ['json_schema', 'json_object', 'instructions'] as const;
export type OutputMode = (typeof OUTPUT_MODES)[number];

/** A failure whose message is for people (stored on the run as it is). */
export class AnalysisFailure extends Error {
  constructor(
    message: string,
    readonly code: string | null = null,
  ) {
    super(message);
    this.name = 'AnalysisFailure';
  }
}

/** A provider saying it does not support the response format asked for (as opposed to any other 400). */
export function refusesResponseFormat(error: unknown): boolean {
  const APIError = loadedOpenAI()?.APIError;
  return (
    !!APIError &&
    error instanceof APIError &&
    (error.status === 400 || error.status === 422) &&
    /response_format|json_schema|json_object|structured output/i.test(error.message ?? '')
  );
}

// The best mode each model accepted, per process: a model that refused json_schema once is not
// asked again for every part of every run.
const modes = new Map<string, OutputMode>();

const SYSTEM = [
  'You analyse transcripts of call and meeting recordings for Earshot.',
  'Base every answer on the transcript only; when it does not tell, say so in the fields that allow it, and never invent facts.',
].join(' ');

/**
 * One structured answer from a chat model: asks for `response_format: json_schema` (then
 * json_object, then instructions only, as the provider allows), checks the answer with the zod
 * schema, asks once more with the problems when it does not match, and throws AnalysisFailure
 * when it still does not. Tokens of every call are added to `usage`, failed ones too.
 */
export class StructuredAsker<T> {
  private readonly schema;
  private readonly jsonSchema;
  private readonly instructions;

  constructor(
    private readonly client: OpenAI,
    private readonly model: { id: string; name: string },
    shape: Pick<AnswerShape<T>, 'schema' | 'jsonSchema' | 'instructions'>,
    readonly usage: AnalysisUsage,
    private readonly signal?: AbortSignal,
  ) {
    this.schema = shape.schema;
    this.jsonSchema = shape.jsonSchema;
    this.instructions = shape.instructions;
  }

  async ask(request: string): Promise<T> {
    const messages: ChatCompletionMessageParam[] = [
      { role: 'system', content: `${SYSTEM}\n\n${this.instructions}` },
      { role: 'user', content: request },
    ];
    const first = await this.call(messages);
    const checked = checkAnswer(this.schema, first);
    if (checked.ok) return checked.value;
    messages.push(
      { role: 'assistant', content: first },
      {
        role: 'user',
        content: `That answer does not match the format (${checked.problems}). Answer again with the JSON object only.\n\n${this.instructions}`,
      },
    );
    const again = checkAnswer(this.schema, await this.call(messages));
    if (again.ok) return again.value;
    throw new AnalysisFailure(`${ANALYSIS_MESSAGES.invalidAnswer}: ${again.problems}`);
  }

  private async call(messages: ChatCompletionMessageParam[]): Promise<string> {
    for (let i = OUTPUT_MODES.indexOf(modes.get(this.model.id) ?? 'json_schema'); ; i++) {
      const mode = OUTPUT_MODES[i]!;
      try {
        const completion = await this.client.chat.completions.create(
          {
            model: this.model.name,
            messages,
            ...(mode === 'json_schema'
              ? {
                  response_format: {
                    type: 'json_schema',
                    json_schema: { name: 'analysis_result', strict: true, schema: this.jsonSchema },
                  },
                }
              : {}),
            ...(mode === 'json_object' ? { response_format: { type: 'json_object' } } : {}),
          },
          { signal: this.signal },
        );
        this.usage.inputTokens += completion.usage?.prompt_tokens ?? 0;
        this.usage.outputTokens += completion.usage?.completion_tokens ?? 0;
        modes.set(this.model.id, mode);
        const choice = completion.choices[0]?.message;
        if (choice?.refusal) throw new AnalysisFailure(`The model refused to answer: ${choice.refusal}`);
        return choice?.content ?? '';
      } catch (error) {
        if (mode !== 'instructions' && refusesResponseFormat(error)) continue;
        throw error;
      }
    }
  }
}
