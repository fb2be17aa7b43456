import type { FileCitationDto, TranscriptCitationDto } from '@earshot/contracts';
import type { Db, Identity } from '@earshot/kit';
import type { CustomGptRow } from '../../db/schema';
import type { RecordingScope } from '../../repositories/recordings';
import { toCitation } from '../passages';
import type { TranscriptCopy } from '../transcripts';
import type { KnowledgeRetrieval } from './retrieval';

/** A quote in a citation: enough to recognise the passage, not the whole chunk again. */
const QUOTE_CHARS = 400;

/** The link that opens a knowledge file (at its page for a PDF). */
export const knowledgeFileLink = (customGptId: string, c: Pick<FileCitationDto, 'fileId' | 'page'>) =>
  `/api/custom-gpt/${customGptId}/files/${c.fileId}${c.page ? `#page=${c.page}` : ''}`;

export interface GptContext {
  knowledge: FileCitationDto[];
  /** Each knowledge passage's whole text, for a model. */
  texts: string[];
  /** Transcript passages, when the GPT may search the company's transcripts. */
  transcripts: TranscriptCitationDto[];
}

function quoteOf(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > QUOTE_CHARS ? `${flat.slice(0, QUOTE_CHARS).replace(/\s+\S*$/, '')}…` : flat;
}

/**
 * What a question to a custom GPT is answered from: the best passages of its files, and of
 * transcripts when allowed (`scope`, the recordings the caller may search, is read only then).
 */
export async function gptContext(
  db: Db,
  retrieval: KnowledgeRetrieval,
  input: {
    identity: Identity;
    gpt: CustomGptRow;
    question: string;
    scope: () => Promise<RecordingScope>;
    passages: number;
    transcripts: Pick<TranscriptCopy, 'search'>;
  },
): Promise<GptContext> {
  const { identity, gpt, question, scope, passages, transcripts: copy } = input;
  const { hits } = await retrieval.search(identity, gpt.id, question, passages);
  const knowledge = hits.map((h, i): FileCitationDto => ({
    kind: 'file',
    fileId: h.fileId,
    fileName: h.fileName,
    ...(h.page ? { page: h.page } : {}),
    index: i + 1,
    quote: quoteOf(h.text),
  }));
  const transcripts = gpt.searchTranscripts
    ? (await copy.search(db, question, await scope(), passages)).map(toCitation)
    : [];
  return { knowledge, texts: hits.map((h) => h.text), transcripts };
}
