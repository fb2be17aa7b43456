import { BUILT_IN_MODEL_ID, MESSAGES } from '@earshot/contracts';
import { clock, escapeMarkdown } from './passages';
import type { ReplyInput, ReplyWriter } from './writer';

export const BUILT_IN_INTRO =
  "I'm Earshot's built-in search assistant, not a language model: I search the transcripts and quote what they say. " +
  'An administrator can connect a language model in AI Configuration for written answers.';

const QUOTE_MAX = 600;

function quote(text: string): string {
  const clean = escapeMarkdown(text);
  return clean.length > QUOTE_MAX ? `${clean.slice(0, QUOTE_MAX).replace(/\s+\S*$/, '')}…` : clean;
}

/** The answer in the pieces it is streamed in: who answers, then one piece per passage. */
export function builtInPieces(input: ReplyInput): string[] {
  const where = input.allCompanies ? 'the transcripts' : "your company's transcripts";
  const asked = escapeMarkdown(input.question.slice(0, 200));
  if (input.passages.length === 0) {
    return [
      `${BUILT_IN_INTRO}\n\n`,
      `I found nothing in ${where} that matches “${asked}”. Try other words, such as names, products or phrases people would have said on the call.`,
    ];
  }
  const found = input.passages.length === 1
    ? `Here is the passage of ${where} that best matches`
    : `Here are the ${input.passages.length} passages of ${where} that best match`;
  return [
    `${BUILT_IN_INTRO}\n\n${found} “${asked}”:\n\n`,
    ...input.passages.map((p, i) =>
      `${i + 1}. **${escapeMarkdown(p.speaker)}** at [${clock(p.start)}](${p.link}) in *${escapeMarkdown(p.fileName) || 'a recording'}*:\n   > ${quote(p.text)}\n\n`),
  ];
}

/** Earshot's built-in search assistant: it quotes passages and never writes text of its own. */
export const builtInWriter: ReplyWriter = {
  model: BUILT_IN_MODEL_ID,
  providerId: null,
  builtIn: true,
  contextSize: null,
  usesHistory: false,
  async *write(input, signal) {
    for (const piece of builtInPieces(input)) {
      if (signal.aborted) break;
      yield piece;
    }
    return null;
  },
  describeError: () => MESSAGES.internal,
};
