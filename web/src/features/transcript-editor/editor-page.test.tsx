/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// The editor on the real transcript page with the store and RTK Query API; `fetch` answers like the
// gateway. Edits' patches must land in the cached transcript without reading it again.
import { describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SpeakerSegment, TranscriptDto, TranscriptPatch } from '@earshot/contracts';
import { fakeGateway, json, renderPage, type Answer, type Call } from '../../../test/fake-gateway';
import { completedTranscript } from '../../../test/completed-transcript';
import { giveElementsASize } from '../../../test/virtual-layout';
import TranscriptViewPage from './transcript-view-page';

const FILE = '00000000-0000-4000-8000-0000000000f1';
const EDIT = '00000000-0000-4000-8000-0000000000e1';
const speakers = [
  { speakerId: 'speaker_0', name: 'Agent', color: '#4f46e5' },
  { speakerId: 'speaker_1', name: 'Customer', color: '#0891b2' },
];

const word = (id: string, text: string, start: number, confidence?: number) => ({
  _id: id,
  text,
  start,
  end: start + 0.4,
  ...(confidence === undefined ? {} : { confidence }),
});
const s1: SpeakerSegment = {
  _id: 's1',
  speakerId: 'speaker_0',
  start: 1,
  end: 2,
  text: 'helo world',
  words: [word('w1', 'helo', 1), word('w2', 'world', 1.5, 0.3)],
};
const s2: SpeakerSegment = {
  _id: 's2',
  speakerId: 'speaker_1',
  start: 3,
  end: 4,
  text: 'good bye',
  words: [word('w3', 'good', 3), word('w4', 'bye', 3.5)],
};

const transcript = (): TranscriptDto =>
  completedTranscript(
    { id: '00000000-0000-4000-8000-0000000000a1', fileId: FILE },
    {
      speakers: [
        { id: 'speaker_0', label: 'Agent', channel: 0, color: '#4f46e5' },
        { id: 'speaker_1', label: 'Customer', channel: 1, color: '#0891b2' },
      ],
      speakerSegments: [s1, { ...s2, end: undefined }],
    },
  );

giveElementsASize();

function open(route: (call: Call) => Answer): Call[] {
  const calls = fakeGateway((call) =>
    call.method === 'GET' && call.path === `/api/transcripts/file/${FILE}` ? json(transcript()) : route(call),
  );
  renderPage(<TranscriptViewPage />, { path: '/transcripts/:id', url: `/transcripts/${FILE}`, role: 'USER' });
  return calls;
}
const reads = (calls: Call[]) => calls.filter((call) => call.path === `/api/transcripts/file/${FILE}`).length;
const patch = (segments: SpeakerSegment[], removed: string[] = []): TranscriptPatch => ({
  editId: EDIT,
  removed,
  segments,
  speakers,
});

describe('the transcript editor', () => {
  it('retypes a turn: Enter sends the text, the answer’s patch replaces the turn without a refetch', async () => {
    const retyped = { ...s1, text: 'hello world', words: [word('w9', 'hello', 1), s1.words[1]!] };
    const calls = open((call) =>
      call.method === 'PUT' && call.path === `/api/transcripts/${FILE}/segments/s1`
        ? json(patch([retyped]))
        : undefined,
    );
    const user = userEvent.setup();
    const row = (await screen.findByRole('button', { name: 'helo' })).closest('[data-testid="segment"]') as HTMLElement;
    await user.click(within(row).getByRole('button', { name: 'Actions for the turn of Agent' }));
    await user.click(screen.getByRole('menuitem', { name: 'Edit text' }));
    const area = screen.getByRole('textbox', { name: 'Text of this turn' });
    await user.clear(area);
    await user.type(area, 'hello{Shift>}{Enter}{/Shift} world{Enter}');
    await screen.findByRole('button', { name: 'hello' });
    expect(calls.filter((call) => call.method === 'PUT')).toEqual([
      expect.objectContaining({ body: { text: 'hello world' } }),
    ]);
    expect(reads(calls)).toBe(1);
    expect(screen.queryByRole('textbox')).toBeNull();
  });

  it('gives a turn to the other speaker, undoes it with Ctrl+Z, and says so when a redo is refused (409)', async () => {
    const calls = open((call) => {
      if (call.method === 'PUT' && call.path === `/api/transcripts/${FILE}/segments/s1`)
        return json(patch([{ ...s1, speakerId: 'speaker_1' }]));
      if (call.path === `/api/transcripts/${FILE}/edits/${EDIT}/undo`)
        return json({ ...patch([s1]), editId: 'undo-1' });
      if (call.path === `/api/transcripts/${FILE}/edits/${EDIT}/redo`)
        return json({ code: 'CONFLICT', message: 'changed since' }, 409);
      return undefined;
    });
    const user = userEvent.setup();
    const row = (await screen.findByRole('button', { name: 'helo' })).closest('[data-testid="segment"]') as HTMLElement;
    await user.click(within(row).getByRole('button', { name: 'Actions for the turn of Agent' }));
    await user.click(screen.getByRole('menuitem', { name: 'Give this turn to Customer' }));
    await waitFor(() => expect(within(row).getByTestId('speaker-name')).toHaveTextContent('Customer'));
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ speakerId: 'speaker_1' });
    fireEvent.keyDown(document.body, { key: 'z', ctrlKey: true });
    await screen.findByText('Edit undone');
    await waitFor(() => expect(within(row).getByTestId('speaker-name')).toHaveTextContent('Agent'));
    await user.click(screen.getByRole('button', { name: /Redo/ }));
    await screen.findByText(
      'This part of the transcript has changed since: the edit can no longer be undone or redone.',
    );
    expect(screen.getByRole('button', { name: /Redo/ })).toBeDisabled();
    expect(reads(calls)).toBe(1);
  });

  it('undoes an edit made before the page opened: the stacks come from the server', async () => {
    const calls = open((call) => {
      if (call.path === `/api/transcripts/${FILE}/edits/mine`) return json({ undo: [EDIT], redo: [] });
      if (call.path === `/api/transcripts/${FILE}/edits/${EDIT}/undo`)
        return json({ ...patch([{ ...s1, speakerId: 'speaker_1' }]), editId: 'undo-1' });
      if (call.path === `/api/transcripts/${FILE}/edits/${EDIT}/redo`)
        return json({ ...patch([s1]), editId: 'redo-1' });
      return undefined;
    });
    const user = userEvent.setup();
    const row = (await screen.findByRole('button', { name: 'helo' })).closest('[data-testid="segment"]') as HTMLElement;
    await waitFor(() => expect(screen.getByRole('button', { name: /Undo/ })).toBeEnabled());
    expect(screen.getByRole('button', { name: /Redo/ })).toBeDisabled();
    fireEvent.keyDown(document.body, { key: 'z', ctrlKey: true });
    await screen.findByText('Edit undone');
    await waitFor(() => expect(within(row).getByTestId('speaker-name')).toHaveTextContent('Customer'));
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.path)).toEqual([
      `/api/transcripts/${FILE}/edits/${EDIT}/undo`,
    ]);
    expect(screen.getByRole('button', { name: /Undo/ })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: /Redo/ }));
    await screen.findByText('Edit redone');
    await waitFor(() => expect(within(row).getByTestId('speaker-name')).toHaveTextContent('Agent'));
  });

  it('gives only the Shift+clicked words to another speaker', async () => {
    const calls = open((call) => (call.method === 'PUT' ? json(patch([])) : undefined));
    const user = userEvent.setup();
    await screen.findByRole('button', { name: 'helo' });
    await user.keyboard('{Shift>}');
    await user.click(screen.getByRole('button', { name: 'world' }));
    await user.keyboard('{/Shift}');
    expect(screen.getByRole('button', { name: 'world' })).toHaveAttribute('aria-pressed', 'true');
    const row = screen.getByRole('button', { name: 'helo' }).closest('[data-testid="segment"]') as HTMLElement;
    await user.click(within(row).getByRole('button', { name: 'Actions for the turn of Agent' }));
    await user.click(screen.getByRole('menuitem', { name: 'Give the selected words to Customer' }));
    await waitFor(() =>
      expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ speakerId: 'speaker_1', wordIds: ['w2'] }),
    );
  });

  it('counts find matches in the browser and replaces one match by its segment and occurrence', async () => {
    const calls = open((call) =>
      call.path === `/api/transcripts/${FILE}/replace` ? json({ replaced: 1, editId: EDIT }) : undefined,
    );
    const user = userEvent.setup();
    await screen.findByRole('button', { name: 'helo' });
    fireEvent.keyDown(document.body, { key: 'h', ctrlKey: true });
    await user.type(screen.getByRole('searchbox', { name: 'Find in the transcript' }), 'o');
    expect(screen.getByTestId('match-count')).toHaveTextContent('1 of 4');
    await user.click(screen.getByRole('button', { name: 'Next match' }));
    await user.click(screen.getByRole('button', { name: 'Next match' }));
    expect(screen.getByTestId('match-count')).toHaveTextContent('3 of 4');
    await user.type(screen.getByRole('textbox', { name: 'Replace with' }), '0');
    await user.click(screen.getByRole('button', { name: 'Replace' }));
    await screen.findByText('Replaced: 1');
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      find: 'o',
      replace: '0',
      matchCase: false,
      wholeWord: false,
      segmentId: 's2',
      occurrence: 0,
    });
    // Replace answers no patch: the transcript is read again.
    await waitFor(() => expect(reads(calls)).toBe(2));
  });

  it('renames a speaker, offering the company’s known people', async () => {
    const calls = open((call) => {
      if (call.path === '/api/transcripts/people') return json([{ name: 'Maria Tamm', kind: 'member' }]);
      if (call.method === 'PUT' && call.path === `/api/transcripts/${FILE}/speakers/speaker_0`)
        return json([{ ...speakers[0], name: 'Maria Tamm' }, speakers[1]]);
      return undefined;
    });
    const user = userEvent.setup();
    await screen.findByRole('button', { name: 'helo' });
    await user.click(screen.getByRole('button', { name: 'Rename Agent' }));
    const field = screen.getByRole('combobox', { name: 'Name of Agent' });
    await waitFor(() =>
      expect(document.querySelector(`#${CSS.escape(field.getAttribute('list') ?? '')} option`)).toHaveAttribute(
        'value',
        'Maria Tamm',
      ),
    );
    expect(calls.find((call) => call.path === '/api/transcripts/people')?.query.get('fileId')).toBe(FILE);
    await user.clear(field);
    await user.type(field, 'Maria Tamm{Enter}');
    await screen.findByText('Speaker renamed');
    expect(screen.getAllByTestId('speaker-name')[0]).toHaveTextContent('Maria Tamm');
    expect(reads(calls)).toBe(1);
  });

  it('underlines unsure words with their confidence and lists the shortcuts on ?', async () => {
    open(() => undefined);
    await screen.findByRole('button', { name: 'helo' });
    expect(screen.getByRole('button', { name: 'world' })).toHaveAttribute('title', 'Unsure word (30 % confidence)');
    expect(screen.getByRole('button', { name: 'helo' })).not.toHaveAttribute('data-unsure');
    fireEvent.keyDown(document.body, { key: '?', shiftKey: true });
    expect(await screen.findByRole('dialog', { name: 'Keyboard shortcuts' })).toBeInTheDocument();
  });
});
