import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { UsageDto } from '@earshot/contracts';
import { describeProviderError, outboundPolicy, providerClient, type ResolvedModel } from '@earshot/ai';
import type { ChatConfig } from '../config';
import { segmentLine } from './context';
import { clock } from './passages';
import type { ReplyInput, ReplyWriter } from './writer';

const SYSTEM_PROMPT = [
  'You are the assistant in Earshot, a console for call and meeting recordings and their transcripts.',
  'With each question you get numbered passages found in the transcripts the person may see,',
  'or the transcript of the one recording the question is about ("this call"), one numbered segment per line.',
  'When they are relevant, answer from them and cite each one you use as [1], [2] and so on, naming the speaker and the time (m:ss) as given.',
  'When they do not answer the question, say so plainly; never invent quotes, speakers or times.',
  'Answer in the language of the question, in Markdown.',
].join(' ');

/** The passages as a model reads them: numbered, with where each one comes from. */
export function sourcesMessage(input: ReplyInput): string {
  const { recording, passages, mode } = input;
  if (recording && (mode === 'whole' || mode === 'excerpts')) {
    const heading =
      mode === 'whole'
        ? `The whole transcript of the recording "${recording.fileName}" (${passages.length} segments, in order):`
        : `Excerpts of the transcript of the recording "${recording.fileName}", in order: it is too long to give whole, so these are ` +
          `the ${passages.length} of its ${recording.total} segments most relevant to the question and a spread of the rest.`;
    return [heading, ...passages.map((p, i) => segmentLine(p, i + 1))].join('\n');
  }
  if (passages.length === 0) {
    return recording
      ? `Transcript passages of the recording "${recording.fileName}": none matched this question.`
      : 'Transcript passages: none matched this question.';
  }
  const lines = passages.map(
    (p, i) =>
      `[${i + 1}] "${p.fileName}", ${p.speaker} at ${clock(p.start)} (${p.link}): ${p.text.replace(/\s+/g, ' ').trim()}`,
  );
  return [
    recording ? `Transcript passages of the recording "${recording.fileName}":` : 'Transcript passages:',
    ...lines,
  ].join('\n');
}

const GPT_RULES = [
  'You answer in Earshot, a console for call and meeting recordings. With each question you get numbered sources:',
  'passages of your knowledge files (with file name and page) and, when allowed, of transcripts.',
  'When they are relevant, answer from them and cite each one you use as [1], [2] and so on.',
  'When they do not answer the question, say so plainly; never invent quotes, pages or facts from them.',
  'Answer in the language of the question, in Markdown.',
].join(' ');

/** A custom GPT's sources as a model reads them: its files' passages first, then transcript passages, numbered on. */
export function gptSourcesMessage(input: ReplyInput & { gpt: NonNullable<ReplyInput['gpt']> }): string {
  const { knowledge, texts } = input.gpt;
  const files = knowledge.map(
    (c, i) =>
      `[${c.index}] "${c.fileName}"${c.page ? `, page ${c.page}` : ''}: ${texts[i]!.replace(/\s+/g, ' ').trim()}`,
  );
  const transcripts = input.passages.map(
    (p, i) =>
      `[${knowledge.length + i + 1}] transcript "${p.fileName}", ${p.speaker} at ${clock(p.start)}: ${p.text.replace(/\s+/g, ' ').trim()}`,
  );
  if (files.length + transcripts.length === 0) return 'Sources: none of the knowledge files matched this question.';
  return ['Sources:', ...files, ...transcripts].join('\n');
}

export function modelMessages(input: ReplyInput): ChatCompletionMessageParam[] {
  if (input.gpt) {
    // The GPT's own instructions are its system prompt; the rules on sources follow them.
    return [
      { role: 'system', content: input.gpt.instructions },
      { role: 'system', content: `${GPT_RULES}\n\n${gptSourcesMessage({ ...input, gpt: input.gpt })}` },
      ...input.history.map((m) => ({ role: m.role, content: m.content })),
    ];
  }
  return [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'system', content: sourcesMessage(input) },
    ...input.history.map((m) => ({ role: m.role, content: m.content })),
  ];
}

/** A configured OpenAI-compatible model, streamed through the guarded provider client. */
export function modelWriter(
  resolved: ResolvedModel,
  config: Pick<ChatConfig, 'AI_ALLOW_PRIVATE_URLS' | 'AI_TIMEOUT_MS'>,
): ReplyWriter {
  return {
    model: resolved.model,
    providerId: resolved.providerId,
    modelId: resolved.modelId,
    builtIn: false,
    contextSize: resolved.contextSize,
    usesHistory: true,
    async *write(input, signal) {
      const client = await providerClient(resolved.endpoint, outboundPolicy(config), config.AI_TIMEOUT_MS);
      const stream = await client.chat.completions.create(
        {
          model: resolved.model,
          stream: true,
          stream_options: { include_usage: true },
          messages: modelMessages(input),
        },
        { signal },
      );
      let usage: UsageDto | null = null;
      // A stopped stream ends this loop quietly; the caller reads `signal` to tell stop from end.
      for await (const chunk of stream) {
        const text = chunk.choices[0]?.delta?.content;
        if (text) yield text;
        if (chunk.usage) {
          usage = {
            promptTokens: chunk.usage.prompt_tokens,
            completionTokens: chunk.usage.completion_tokens,
            totalTokens: chunk.usage.total_tokens,
          };
        }
      }
      return usage;
    },
    describeError: describeProviderError,
  };
}
