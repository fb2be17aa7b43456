/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// An edit made on a transcript someone else changed since: the page says so, keeps the typed
// text, and reloads the transcript on request.
import { describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SpeakerSegment, TranscriptDto } from '@earshot/contracts';
import { fakeGateway, json, renderPage } from '../../../test/fake-gateway';
import { completedTranscript } from '../../../test/completed-transcript';
import { giveElementsASize } from '../../../test/virtual-layout';
import TranscriptViewPage from './transcript-view-page';
import { IDLE, wordEditReducer } from './word-edit';

const FILE = '00000000-0000-4000-8000-0000000000f2';
const s1: SpeakerSegment = {
  _id: 's1',
  speakerId: 'speaker_0',
  start: 1,
  end: 2,
  text: 'helo world',
  words: [
    { _id: 'w1', text: 'helo', start: 1, end: 1.4 },
    { _id: 'w2', text: 'world', start: 1.5, end: 1.9 },
  ],
};

const transcript = (version: number): TranscriptDto =>
  completedTranscript(
    { id: '00000000-0000-4000-8000-0000000000a2', fileId: FILE },
    {
      speakers: [{ id: 'speaker_0', label: 'Agent', channel: 0, color: '#4f46e5' }],
      // The last turn without an end, as the other editor tests have it.
      speakerSegments: [s1, { ...s1, _id: 's2', start: 3, text: 'bye', words: [], end: undefined }],
    },
    { version },
  );

giveElementsASize();

describe('an edit refused as stale', () => {
  it('sends the version it has, says someone else changed it, keeps the typed text, and reloads on request', async () => {
    let version = 4;
    const calls = fakeGateway((call) => {
      if (call.method === 'GET' && call.path === `/api/transcripts/file/${FILE}`) return json(transcript(version));
      if (call.method === 'PUT' && call.path === `/api/transcripts/${FILE}/segments/s1`)
        return json(
          {
            code: 'CONFLICT',
            message: 'The transcript was changed by someone else: reload it and edit again',
            details: { reason: 'stale_version', baseVersion: 4, currentVersion: 5 },
          },
          409,
        );
      return undefined;
    });
    // The fake gateway does not keep headers: the If-Match each edit sent is read here.
    const sent: (string | null)[] = [];
    const gateway = globalThis.fetch;
    globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      if (input instanceof Request && input.method === 'PUT') sent.push(input.headers.get('if-match'));
      return gateway(input, init);
    }) as typeof fetch;
    renderPage(<TranscriptViewPage />, { path: '/transcripts/:id', url: `/transcripts/${FILE}`, role: 'USER' });

    const user = userEvent.setup();
    const row = (await screen.findByRole('button', { name: 'helo' })).closest('[data-testid="segment"]') as HTMLElement;
    await user.click(within(row).getByRole('button', { name: 'Actions for the turn of Agent' }));
    await user.click(screen.getByRole('menuitem', { name: 'Edit text' }));
    const area = screen.getByRole('textbox', { name: 'Text of this turn' });
    await user.clear(area);
    await user.type(area, 'hello world{Enter}');

    const notice = await screen.findByRole('alert');
    expect(notice).toHaveTextContent(
      'This transcript was changed by someone else since you opened it: your edit was not saved. Reload it, then save again.',
    );
    expect(sent).toEqual(['"4"']);
    // The refused text is still there to save again.
    expect(screen.getByRole('textbox', { name: 'Text of this turn' })).toHaveValue('hello world');

    version = 5;
    await user.click(within(notice).getByRole('button', { name: 'Reload' }));
    await waitFor(() => expect(calls.filter((call) => call.path === `/api/transcripts/file/${FILE}`)).toHaveLength(2));
    expect(screen.queryByTestId('stale-notice')).toBeNull();
    expect(screen.getByRole('textbox', { name: 'Text of this turn' })).toHaveValue('hello world');

    // The next save names the version the reload brought.
    await user.click(screen.getByTestId('segment-text-save'));
    await waitFor(() => expect(sent).toEqual(['"4"', '"5"']));
  });
});

describe('a speaker rename or a find and replace refused as stale', () => {
  const STALE = {
    code: 'CONFLICT',
    message: 'The transcript was changed by someone else: reload it and edit again',
    details: { reason: 'stale_version', baseVersion: 4, currentVersion: 5 },
  };

  it('shows the same notice as a segment edit, not a toast, and keeps the typed name', async () => {
    fakeGateway((call) => {
      if (call.method === 'GET' && call.path === `/api/transcripts/file/${FILE}`) return json(transcript(4));
      if (call.method === 'PUT' && call.path === `/api/transcripts/${FILE}/speakers/speaker_0`) return json(STALE, 409);
      return undefined;
    });
    renderPage(<TranscriptViewPage />, { path: '/transcripts/:id', url: `/transcripts/${FILE}`, role: 'USER' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Rename Agent' }));
    const name = screen.getByLabelText('Name of Agent');
    await user.clear(name);
    await user.type(name, 'Dana{Enter}');

    const notice = await screen.findByTestId('stale-notice');
    expect(notice).toHaveTextContent('This transcript was changed by someone else since you opened it');
    expect(screen.queryByText('The change could not be saved')).toBeNull();
    expect(screen.getByLabelText('Name of Agent')).toHaveValue('Dana');
  });

  it('shows the notice when a replace is refused as stale', async () => {
    fakeGateway((call) => {
      if (call.method === 'GET' && call.path === `/api/transcripts/file/${FILE}`) return json(transcript(4));
      if (call.method === 'POST' && call.path === `/api/transcripts/${FILE}/replace`) return json(STALE, 409);
      return undefined;
    });
    renderPage(<TranscriptViewPage />, { path: '/transcripts/:id', url: `/transcripts/${FILE}`, role: 'USER' });
    const user = userEvent.setup();
    await screen.findByRole('button', { name: 'helo' });
    await user.click(screen.getAllByTestId('open-find')[0]!);
    await user.type(screen.getByLabelText('Find in the transcript'), 'helo');
    await user.type(screen.getByLabelText('Replace with'), 'hello');
    await user.click(screen.getByRole('button', { name: 'Replace all' }));

    const notice = await screen.findByTestId('stale-notice');
    expect(notice).toHaveTextContent('This transcript was changed by someone else since you opened it');
    expect(screen.queryByText('The change could not be saved')).toBeNull();
  });
});

describe('a word refused as stale', () => {
  it('goes back to editing with the typed word, not to idle', () => {
    const saving = {
      status: 'saving' as const,
      wordId: 'w1',
      segmentId: 's1',
      original: 'helo',
      draft: 'hello',
    };
    expect(wordEditReducer(saving, { type: 'refused' })).toEqual({ ...saving, status: 'editing' });
    expect(wordEditReducer(IDLE, { type: 'refused' })).toBe(IDLE);
  });
});
