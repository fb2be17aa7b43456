import { describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useReducer, type ReactElement } from 'react';
import { I18nextProvider } from 'react-i18next';
import i18next from 'i18next';
import { en } from '../../i18n/locales/en';
import type { Segment } from './model';
import { PlayerContext } from './player';
import { createPlaybackStore, PlaybackContext } from './playback-store';
import { SegmentRow } from './segment-row';
import { IDLE, inputWidth, outcomeOf, wordEditReducer, type WordEditState } from './word-edit';

const i18n = i18next.createInstance();
void i18n.init({ lng: 'en', resources: { en: { translation: en } }, interpolation: { escapeValue: false } });

describe('word edit state machine', () => {
  const start = { type: 'start', wordId: 'w1', segmentId: 's1', text: 'helo' } as const;

  it('goes idle → editing → saving → idle on success', () => {
    let state: WordEditState = wordEditReducer(IDLE, start);
    expect(state).toMatchObject({ status: 'editing', wordId: 'w1', draft: 'helo', original: 'helo' });
    state = wordEditReducer(state, { type: 'change', draft: 'hello' });
    state = wordEditReducer(state, { type: 'submit' });
    expect(state).toMatchObject({ status: 'saving', draft: 'hello' });
    // No cancel or second edit while the save is on its way.
    expect(wordEditReducer(state, { type: 'cancel' })).toBe(state);
    expect(wordEditReducer(state, { ...start, wordId: 'w2' })).toBe(state);
    expect(wordEditReducer(state, { type: 'done' })).toEqual(IDLE);
  });

  it('Esc cancels without saving', () => {
    const state = wordEditReducer(wordEditReducer(IDLE, start), { type: 'change', draft: 'zzz' });
    expect(wordEditReducer(state, { type: 'cancel' })).toEqual(IDLE);
  });

  it('counts only the exact success message as an update', () => {
    expect(outcomeOf({ message: 'Word updated successfully' })).toBe('updated');
    expect(outcomeOf({ message: 'Word Failed' })).toBe('failed');
    expect(outcomeOf({ message: 'word updated successfully' })).toBe('failed');
    expect(outcomeOf(null)).toBe('failed');
    expect(outcomeOf({})).toBe('failed');
  });

  it('sizes the input between 40 and 120 px', () => {
    expect(inputWidth('')).toBe(40);
    expect(inputWidth('hello')).toBe(56);
    expect(inputWidth('x'.repeat(50))).toBe(120);
  });
});

const segment: Segment = {
  _id: 's1', speakerId: 'speaker_0', start: 1, end: 3, text: 'helo world',
  words: [{ _id: 'w1', text: 'helo', start: 1, end: 1.5 }, { _id: 'w2', text: 'world', start: 1.6, end: 2.2 }],
};

/** The row with the page's edit wiring: save answers with `answer` (or throws), the word changes only on success. */
function Harness({ save, toasts }: { save: (text: string) => Promise<unknown>; toasts: string[] }): ReactElement {
  const [edit, dispatch] = useReducer(wordEditReducer, IDLE);
  const [text, setText] = useReducer((_: string, next: string) => next, 'helo');
  const onSave = () => {
    if (edit.status !== 'editing') return;
    dispatch({ type: 'submit' });
    void save(edit.draft).then(outcomeOf, () => 'failed' as const).then((outcome) => {
      if (outcome === 'updated') setText(edit.draft);
      toasts.push(outcome === 'updated' ? en.viewer.wordUpdated : en.viewer.wordFailed);
      dispatch({ type: 'done' });
    });
  };
  const shown = { ...segment, words: [{ ...segment.words[0]!, text }, segment.words[1]!] };
  return <SegmentRow segment={shown} color="#4f46e5" edit={edit.status === 'idle' ? null : edit} dispatchEdit={dispatch} onSave={onSave} onUserSeek={() => undefined} />;
}

function renderRow(save: (text: string) => Promise<unknown>) {
  const toasts: string[] = [];
  const store = createPlaybackStore();
  store.setSegments([segment], 10);
  const player = { media: null, duration: 10 };
  render(
    <I18nextProvider i18n={i18n}>
      <PlaybackContext.Provider value={store}>
        <PlayerContext.Provider value={player}>
          <Harness save={save} toasts={toasts} />
        </PlayerContext.Provider>
      </PlaybackContext.Provider>
    </I18nextProvider>,
  );
  return { toasts, store };
}

async function openEditor(user: ReturnType<typeof userEvent.setup>) {
  await user.hover(screen.getByRole('button', { name: 'helo' }));
  // user-event moves the pointer without a relatedTarget, which React reads as leaving the row.
  fireEvent.click(screen.getByRole('button', { name: 'Edit word helo' }));
  return screen.getByRole('textbox', { name: 'Corrected word' });
}

describe('inline word edit', () => {
  it('shows a pencil on hover; Enter saves and the word changes on success', async () => {
    const user = userEvent.setup();
    const save = jest.fn(async (_text: string) => ({ message: 'Word updated successfully' }));
    const { toasts } = renderRow(save);
    const input = await openEditor(user);
    expect(screen.getByRole('button', { name: 'Save' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
    await user.clear(input);
    await user.type(input, 'hello{Enter}');
    expect(save).toHaveBeenCalledWith('hello');
    await screen.findByRole('button', { name: 'hello' });
    expect(toasts).toEqual(['Success! Word Updated']);
  });

  it('keeps the old word when the answer is not the success message', async () => {
    const user = userEvent.setup();
    const { toasts } = renderRow(async () => ({ message: 'Word Failed' }));
    const input = await openEditor(user);
    await user.clear(input);
    await user.type(input, 'hullo');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByRole('button', { name: 'helo' });
    expect(screen.queryByRole('button', { name: 'hullo' })).toBeNull();
    expect(toasts).toEqual(['Failed to Update word!']);
  });

  it('Esc cancels: no call, the word is unchanged', async () => {
    const user = userEvent.setup();
    const save = jest.fn(async (_text: string) => ({ message: 'Word updated successfully' }));
    renderRow(save);
    const input = await openEditor(user);
    await user.type(input, 'xyz{Escape}');
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.getByRole('button', { name: 'helo' })).toBeInTheDocument();
    expect(save).not.toHaveBeenCalled();
  });

  it('makes the spoken word bold and tints the segment, clearing when playback ends', () => {
    const { store } = renderRow(async () => ({}));
    act(() => store.setTime(1.65));
    expect(screen.getByRole('button', { name: 'world' })).toHaveAttribute('data-active', 'true');
    expect(screen.getByRole('button', { name: 'world' }).className).toContain('font-bold');
    expect(screen.getByRole('button', { name: 'helo' })).not.toHaveAttribute('data-active');
    expect(screen.getByTestId('segment')).toHaveAttribute('data-current', 'true');
    act(() => store.clear());
    expect(screen.getByRole('button', { name: 'world' })).not.toHaveAttribute('data-active');
    expect(screen.getByTestId('segment')).not.toHaveAttribute('data-current');
  });
});
