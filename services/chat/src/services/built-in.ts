import { BUILT_IN_MODEL_ID, MESSAGES } from '@earshot/contracts';
import { asksOverview } from './context';
import { knowledgeFileLink } from './knowledge/gpt-context';
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

const passageLine = (p: ReplyInput['passages'][number], i: number) =>
  `${i + 1}. **${escapeMarkdown(p.speaker)}** at [${clock(p.start)}](${p.link}) in *${escapeMarkdown(p.fileName) || 'a recording'}*:\n   > ${quote(p.text)}\n\n`;

/** A custom GPT without a chat model: its files' best passages, quoted, with file name and page. */
function gptPieces(input: ReplyInput, gpt: NonNullable<ReplyInput['gpt']>): string[] {
  const name = escapeMarkdown(gpt.name);
  const intro =
    `I'm Earshot's built-in search assistant, not a language model and not “${name}” itself: I search the files of “${name}” and quote what they say. ` +
    'An administrator can connect a language model in AI Configuration for written answers.';
  const asked = escapeMarkdown(input.question.slice(0, 200));
  const files = gpt.knowledge.map(
    (c) =>
      `${c.index}. [*${escapeMarkdown(c.fileName)}*${c.page ? `, page ${c.page}` : ''}](${knowledgeFileLink(gpt.id, c)}):\n   > ${quote(c.quote)}\n\n`,
  );
  const transcripts = input.passages.map((p, i) => passageLine(p, gpt.knowledge.length + i));
  if (files.length + transcripts.length === 0) {
    return [
      `${intro}\n\n`,
      `I found nothing in the files of “${name}” that matches “${asked}”. Try other words, such as names or phrases the documents would use.`,
    ];
  }
  return [`${intro}\n\nHere is what best matches “${asked}”:\n\n`, ...files, ...transcripts];
}

/** The answer in the pieces it is streamed in: who answers, then one piece per passage. */
export function builtInPieces(input: ReplyInput): string[] {
  if (input.gpt) return gptPieces(input, input.gpt);
  const recording = input.recording ? `*${escapeMarkdown(input.recording.fileName) || 'this recording'}*` : null;
  const where = recording ?? (input.allCompanies ? 'the transcripts' : "your company's transcripts");
  const asked = escapeMarkdown(input.question.slice(0, 200));
  if (input.passages.length === 0) {
    return [
      `${BUILT_IN_INTRO}\n\n`,
      `I found nothing in ${where} that matches “${asked}”. Try other words, such as names, products or phrases people would have said on the call.`,
    ];
  }
  if (input.mode === 'overview') {
    // Never a made-up summary: what the recording says, quoted, and why it is only that.
    const why = asksOverview(input.question)
      ? `I cannot summarise ${where}: I can only quote it.`
      : `Nothing in ${where} matches “${asked}” word for word.`;
    return [
      `${BUILT_IN_INTRO}\n\n${why} Here is how it opens and its longest passages, in order:\n\n`,
      ...input.passages.map(passageLine),
    ];
  }
  const found =
    input.passages.length === 1
      ? `Here is the passage of ${where} that best matches`
      : `Here are the ${input.passages.length} passages of ${where} that best match`;
  return [`${BUILT_IN_INTRO}\n\n${found} “${asked}”:\n\n`, ...input.passages.map(passageLine)];
}

/** Earshot's built-in search assistant: it quotes passages and never writes text of its own. */
export const builtInWriter: ReplyWriter = {
  model: BUILT_IN_MODEL_ID,
  providerId: null,
  modelId: null,
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
