// The inline word edit: idle → editing one word → saving → idle, with a success or
// failure toast. The word changes locally only when the answer's message is 'Word updated successfully'.
import { WORD_UPDATED } from '../../entities/transcripts';

export type WordEditState =
  | { status: 'idle' }
  | { status: 'editing'; wordId: string; segmentId: string; original: string; draft: string }
  | { status: 'saving'; wordId: string; segmentId: string; original: string; draft: string };

export type WordEditEvent =
  | { type: 'start'; wordId: string; segmentId: string; text: string }
  | { type: 'change'; draft: string }
  | { type: 'cancel' }
  | { type: 'submit' }
  | { type: 'done' }
  // Refused because the transcript changed since: back to editing, the typed word kept.
  | { type: 'refused' };

export const IDLE: WordEditState = { status: 'idle' };

export function wordEditReducer(state: WordEditState, event: WordEditEvent): WordEditState {
  switch (event.type) {
    case 'start':
      if (state.status === 'saving') return state;
      return {
        status: 'editing',
        wordId: event.wordId,
        segmentId: event.segmentId,
        original: event.text,
        draft: event.text,
      };
    case 'change':
      return state.status === 'editing' ? { ...state, draft: event.draft } : state;
    case 'cancel':
      return state.status === 'editing' ? IDLE : state;
    case 'submit':
      return state.status === 'editing' ? { ...state, status: 'saving' } : state;
    case 'done':
      return IDLE;
    case 'refused':
      return state.status === 'saving' ? { ...state, status: 'editing' } : state;
  }
}

export type SaveOutcome = 'updated' | 'failed';

/** What an answer means: only the exact success message counts as an update. */
export function outcomeOf(answer: unknown): SaveOutcome {
  const message = answer && typeof answer === 'object' ? (answer as { message?: unknown }).message : undefined;
  return message === WORD_UPDATED ? 'updated' : 'failed';
}

/** Input width for the draft: 40–120 px, about 8 px a character. */
export function inputWidth(draft: string): number {
  return Math.min(120, Math.max(40, draft.length * 8 + 16));
}
