import type { TextBlock } from './extract';

export interface Chunk {
  position: number;
  page: number | null;
  heading: string | null;
  text: string;
}

/** About a paragraph or two: long enough to carry a fact with its context, short enough to quote. */
export const CHUNK_CHARS = 1_000;
/** Each chunk repeats the end of the one before, so a sentence cut at a border is whole in one. */
export const CHUNK_OVERLAP = 150;

/**
 * Cuts a file's blocks into overlapping chunks. A chunk never spans two pages or two headings, so
 * its page and heading are exact; within a run of blocks that share both, chunks are cut at a
 * paragraph, sentence or word border near CHUNK_CHARS and overlap by about CHUNK_OVERLAP.
 */
export function chunkBlocks(blocks: readonly TextBlock[]): Chunk[] {
  const chunks: Chunk[] = [];
  let i = 0;
  while (i < blocks.length) {
    const { page, heading } = blocks[i]!;
    let text = '';
    while (i < blocks.length && blocks[i]!.page === page && blocks[i]!.heading === heading) {
      text += (text ? '\n\n' : '') + blocks[i]!.text;
      i++;
    }
    for (const piece of split(text)) chunks.push({ position: chunks.length, page, heading, text: piece });
  }
  return chunks;
}

function cutAt(text: string, from: number, to: number): number {
  if (to >= text.length) return text.length;
  const window = text.slice(from, to);
  const floor = Math.floor((to - from) / 2);
  for (const border of ['\n\n', '\n', '. ', '? ', '! ', '; ', ', ', ' ']) {
    const at = window.lastIndexOf(border);
    if (at >= floor) return from + at + border.length;
  }
  return to;
}

function split(text: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  while (start < text.length) {
    const end = cutAt(text, start, start + CHUNK_CHARS);
    const piece = text.slice(start, end).trim();
    if (piece) pieces.push(piece);
    if (end >= text.length) break;
    // Step back by the overlap, to a word border so the next chunk starts with a whole word.
    let next = Math.max(start + 1, end - CHUNK_OVERLAP);
    const space = text.indexOf(' ', next);
    if (space >= 0 && space < end) next = space + 1;
    start = next;
  }
  return pieces;
}
