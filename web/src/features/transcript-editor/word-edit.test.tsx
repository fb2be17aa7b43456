/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// The inline word edit of the real transcript page (TranscriptViewPage → SegmentList → SegmentRow)
// with the app's store and RTK Query API; only the network is faked: `fetch` answers like the
// gateway. The edit's state machine is tested on its own first.
import { describe, expect, it, jest } from '@jest/globals';
import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import type { TranscriptDto } from '@earshot/contracts';
import { en } from '../../i18n/locales/en';
import { makeStore } from '../../lib/store';
import { giveElementsASize } from '../../../test/virtual-layout';
import TranscriptViewPage from './transcript-view-page';
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

const FILE_ID = '00000000-0000-4000-8000-0000000000f1';
const TRANSCRIPT_ID = '00000000-0000-4000-8000-0000000000a1';

function transcript(): TranscriptDto {
  return {
    _id: TRANSCRIPT_ID,
    fileId: FILE_ID,
    companyId: '00000000-0000-4000-8000-0000000000c1',
    audioPath: 'audio/call.wav',
    status: 'completed',
    reason: null,
    clientId: null,
    engine: 'test',
    language: null,
    model: null,
    file: {
      url: '/uploads/call.wav',
      path: 'call.wav',
      filename: 'call.wav',
      originalName: 'call.wav',
      uploadDate: '2025-03-07T12:00:00.000Z',
    },
    // No duration and an open last segment: the waveform player (wavesurfer, not under test) stays away.
    metadata: {
      duration: null,
      peaksUrl: null,
      speakers: [],
      speakerSegments: [
        {
          _id: 's1',
          speakerId: 'speaker_0',
          start: 1,
          text: 'helo world',
          words: [
            { _id: 'w1', text: 'helo', start: 1, end: 1.5 },
            { _id: 'w2', text: 'world', start: 1.6, end: 2.2 },
          ],
        },
      ],
    },
    createdAt: '2025-03-07T12:00:00.000Z',
    updatedAt: '2025-03-07T12:00:00.000Z',
  };
}

interface Sent {
  method: string;
  path: string;
  body: unknown;
}

/** The gateway at the network boundary: the transcript, and the word edit answered by `wordAnswer`. */
function fakeGateway(wordAnswer: { status: number; body: unknown }) {
  const sent: Sent[] = [];
  const fetchFn = jest.fn(async (input: RequestInfo | URL) => {
    const request = input as Request;
    const path = new URL(request.url).pathname;
    const text = await request.text();
    sent.push({ method: request.method, path, body: text ? JSON.parse(text) : null });
    const json = (status: number, body: unknown) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    if (request.method === 'GET' && path === `/api/transcripts/file/${FILE_ID}`) return json(200, transcript());
    if (request.method === 'PUT' && path.startsWith(`/api/transcripts/${TRANSCRIPT_ID}/metadata/words/`))
      return json(wordAnswer.status, wordAnswer.body);
    return json(404, { message: 'Not found' });
  });
  return { sent, fetchFn };
}

let gateway: ReturnType<typeof fakeGateway>;
giveElementsASize();

function wordAnswers(answer: { status: number; body: unknown }) {
  gateway = fakeGateway(answer);
  globalThis.fetch = gateway.fetchFn as unknown as typeof fetch;
}

async function renderPage(search = '') {
  render(
    <Provider store={makeStore()}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={[`/transcripts/${FILE_ID}${search}`]}>
          <Routes>
            <Route path="/transcripts/:id" element={<TranscriptViewPage />} />
          </Routes>
        </MemoryRouter>
      </I18nextProvider>
    </Provider>,
  );
  await screen.findByRole('button', { name: 'helo' });
}

async function openEditor(user: ReturnType<typeof userEvent.setup>) {
  await user.hover(screen.getByRole('button', { name: 'helo' }));
  // user-event moves the pointer without a relatedTarget, which React reads as leaving the row.
  fireEvent.click(screen.getByRole('button', { name: 'Edit word helo' }));
  return screen.getByRole('textbox', { name: 'Corrected word' });
}

const wordCalls = () => gateway.sent.filter((call) => call.method === 'PUT');

describe('inline word edit on the transcript page', () => {
  it('shows a pencil on hover; Enter saves through the API and the word changes on success', async () => {
    wordAnswers({ status: 200, body: { message: 'Word updated successfully' } });
    const user = userEvent.setup();
    await renderPage();
    const input = await openEditor(user);
    expect(screen.getByRole('button', { name: 'Save' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
    await user.clear(input);
    await user.type(input, 'hello{Enter}');
    await screen.findByRole('button', { name: 'hello' });
    expect(wordCalls()).toEqual([
      {
        method: 'PUT',
        path: `/api/transcripts/${TRANSCRIPT_ID}/metadata/words/w1`,
        body: { text: 'hello', speakerSegmentId: 's1' },
      },
    ]);
    expect(await screen.findByText('Word updated')).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).toBeNull();
  });

  it('keeps the old word when the answer is not the success message', async () => {
    wordAnswers({ status: 200, body: { message: 'Word Failed' } });
    const user = userEvent.setup();
    await renderPage();
    const input = await openEditor(user);
    await user.clear(input);
    await user.type(input, 'hullo');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The word could not be updated')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'helo' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'hullo' })).toBeNull();
    expect(wordCalls()).toHaveLength(1);
  });

  it('keeps the old word when the server refuses the edit', async () => {
    wordAnswers({ status: 400, body: { message: 'Word Failed' } });
    const user = userEvent.setup();
    await renderPage();
    const input = await openEditor(user);
    await user.clear(input);
    await user.type(input, 'hullo{Enter}');
    expect(await screen.findByText('The word could not be updated')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'helo' })).toBeInTheDocument();
  });

  it('Esc cancels, and saving the unchanged word sends nothing', async () => {
    wordAnswers({ status: 200, body: { message: 'Word updated successfully' } });
    const user = userEvent.setup();
    await renderPage();
    let input = await openEditor(user);
    await user.type(input, 'xyz{Escape}');
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.getByRole('button', { name: 'helo' })).toBeInTheDocument();
    input = await openEditor(user);
    await user.type(input, '{Enter}');
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(wordCalls()).toEqual([]);
  });

  it('makes the spoken word bold and tints the segment when playback reaches it', async () => {
    wordAnswers({ status: 200, body: { message: 'Word updated successfully' } });
    const user = userEvent.setup();
    await renderPage();
    // A click on a word seeks there (the player has no audio element in jsdom; the time still moves).
    await user.click(screen.getByRole('button', { name: 'world' }));
    const segment = screen.getByTestId('segment');
    expect(within(segment).getByRole('button', { name: 'world' })).toHaveAttribute('data-active', 'true');
    expect(within(segment).getByRole('button', { name: 'world' }).className).toContain('font-bold');
    expect(within(segment).getByRole('button', { name: 'helo' })).not.toHaveAttribute('data-active');
    expect(segment).toHaveAttribute('data-current', 'true');
  });
});

describe('opening the transcript page at ?t=', () => {
  it('highlights the segment at that time without playing, and links to the analysis and to chat', async () => {
    wordAnswers({ status: 200, body: {} });
    await renderPage('?t=1.7');
    const row = screen.getByRole('button', { name: 'world' }).closest('[data-current]');
    expect(row).toHaveAttribute('data-current', 'true');
    // The spoken word at 1.7 s is 'world' (1.6–2.2 s), shown bold.
    expect(screen.getByRole('button', { name: 'world' })).toHaveClass('font-bold');
    expect(screen.getByRole('button', { name: 'helo' })).not.toHaveClass('font-bold');
    expect(screen.getByRole('link', { name: 'Analysis' })).toHaveAttribute('href', `/transcripts/${FILE_ID}/analysis`);
    expect(screen.getByRole('link', { name: /Ask about this recording/ })).toHaveAttribute(
      'href',
      `/chat?transcript=${FILE_ID}`,
    );
  });

  it('opens at the start without ?t=', async () => {
    wordAnswers({ status: 200, body: {} });
    await renderPage();
    expect(screen.getByRole('button', { name: 'world' }).closest('[data-current]')).toBeNull();
  });
});
