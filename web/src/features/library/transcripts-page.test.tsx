/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// The transcripts list (the library): client and company columns, filters kept in the URL, tags
// in the rows, selection and export, and only the calls the role may make. With the app's store
// and RTK Query API; only the network is faked.
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeGateway, json, renderPage, type Call } from '../../../test/fake-gateway';
import TranscriptsPage from './transcripts-page';

const COMPANY = 'c0000000-0000-4000-8000-000000000001';
const CLIENT = 'b0000000-0000-4000-8000-000000000001';
const file = (n: number, clientId: string | null, tags: string[] = []) => ({
  _id: `f${n}`,
  companyId: COMPANY,
  originalName: `call-${n}.wav`,
  filename: `call-${n}.wav`,
  size: 1024,
  mimeType: 'audio/wav',
  uploadDate: '2026-01-03T10:00:00.000Z',
  status: 'completed',
  transcriptionStatus: 'completed',
  transcriptionError: null,
  clientId,
  url: '',
  path: '',
  tags,
  language: null,
  expectedSpeakers: null,
  speakers: n === 1 ? ['Ann Lee', 'Speaker 2'] : [],
});

function gateway(speech = { whisper: true, speakerSeparation: true }) {
  const tags = new Map<string, string[]>([
    ['f1', ['billing']],
    ['f2', []],
  ]);
  return fakeGateway((call) => {
    if (call.path === '/api/files') {
      const items = [file(1, CLIENT, tags.get('f1')), file(2, null, tags.get('f2'))]
        .filter((item) => !call.query.get('clientId') || item.clientId === call.query.get('clientId'))
        .filter((item) => !call.query.get('tag') || item.tags.includes(call.query.get('tag') ?? ''));
      return json({ items, page: 1, pageSize: 10, total: items.length, totalPages: 1 });
    }
    const tagged = /^\/api\/files\/(f\d)\/tags$/.exec(call.path);
    if (tagged && call.method === 'PUT') {
      tags.set(tagged[1]!, (call.body as { tags: string[] }).tags);
      return json({ fileId: tagged[1], tags: tags.get(tagged[1]!) });
    }
    if (call.path === '/api/tags') {
      const counts = new Map<string, number>();
      for (const list of tags.values()) for (const tag of list) counts.set(tag, (counts.get(tag) ?? 0) + 1);
      return json([...counts].map(([name, count]) => ({ name, count })));
    }
    // The ZIP's bytes are not this test's business (the server's export tests read them).
    if (call.path === '/api/transcripts/export') return json({});
    if (call.path === '/api/clients/dropdown') return json([{ _id: CLIENT, name: 'Northwind' }]);
    if (call.path === '/api/companies/dropdown') return json([{ _id: COMPANY, name: 'Acme' }]);
    if (call.path === '/api/ai/speech-models/readiness') return json(speech);
    return undefined;
  });
}

const filesCalls = (calls: Call[]) => calls.filter((call) => call.path === '/api/files');

afterEach(() => localStorage.clear());

describe('transcripts list', () => {
  it('names each file’s client under a translated header and filters by client', async () => {
    const calls = gateway();
    const user = userEvent.setup();
    renderPage(<TranscriptsPage />, { path: '/transcripts', url: '/transcripts', role: 'ADMIN' });
    expect(await screen.findByRole('link', { name: 'Northwind' })).toHaveAttribute('href', `/client/${CLIENT}`);
    expect(screen.getByRole('columnheader', { name: 'Client' })).not.toHaveAttribute('lang');
    expect(screen.queryByRole('columnheader', { name: 'Company' })).toBeNull();
    expect(screen.getByTestId('data-table-scroll-hint')).toBeInTheDocument();
    await user.selectOptions(screen.getByTestId('client-filter'), 'Northwind');
    await waitFor(() => expect(screen.getAllByTestId('file-row')).toHaveLength(1));
    expect(filesCalls(calls).at(-1)?.query.get('clientId')).toBe(CLIENT);
  });

  it('a USER’s list asks only for what a USER may read: no clients (no 403), no client filter', async () => {
    const calls = gateway();
    renderPage(<TranscriptsPage />, { path: '/transcripts', url: '/transcripts', role: 'USER' });
    await screen.findAllByTestId('file-row');
    await screen.findByRole('option', { name: 'billing' });
    expect(calls.map((call) => call.path)).not.toContain('/api/clients/dropdown');
    expect(screen.queryByTestId('client-filter')).toBeNull();
    expect(screen.getByTestId('tag-filter')).toBeInTheDocument();
  });

  it('says before an upload that one speaker will be found when speaker separation is not installed', async () => {
    gateway({ whisper: true, speakerSeparation: false });
    renderPage(<TranscriptsPage />, { path: '/transcripts', url: '/transcripts', role: 'USER' });
    expect(await screen.findByTestId('upload-one-speaker')).toHaveTextContent(
      'One speaker will be found: speaker separation is not installed.',
    );
  });

  it('says nothing about speakers once the speaker models are installed', async () => {
    const calls = gateway();
    renderPage(<TranscriptsPage />, { path: '/transcripts', url: '/transcripts', role: 'CALLER' });
    await screen.findAllByTestId('file-row');
    await waitFor(() => expect(calls.map((call) => call.path)).toContain('/api/ai/speech-models/readiness'));
    expect(screen.queryByTestId('upload-one-speaker')).toBeNull();
  });

  it('a HOST_ADMIN sees each file’s company and must pick the upload’s company first', async () => {
    gateway();
    const user = userEvent.setup();
    renderPage(<TranscriptsPage />, { path: '/transcripts', url: '/transcripts', role: 'HOST_ADMIN', companyId: null });
    expect(await screen.findAllByRole('cell', { name: /^Acme$/ })).toHaveLength(2);
    const choose = screen.getByRole('button', { name: 'Choose files' });
    expect(choose).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Choose folder' })).toBeDisabled();
    await user.selectOptions(screen.getByTestId('upload-company'), 'Acme');
    expect(choose).toBeEnabled();
  });

  it('reads its filters from the URL and writes a chosen one back into the list’s request', async () => {
    const calls = gateway();
    const user = userEvent.setup();
    renderPage(<TranscriptsPage />, {
      path: '/transcripts',
      url: '/transcripts?tag=billing&status=completed&from=2026-01-01&speaker=Ann%20Lee',
      role: 'USER',
    });
    await waitFor(() => expect(screen.getAllByTestId('file-row')).toHaveLength(1));
    const first = filesCalls(calls)[0]!.query;
    expect(Object.fromEntries(first)).toEqual({
      page: '1',
      pageSize: '10',
      tag: 'billing',
      status: 'completed',
      from: '2026-01-01',
      speaker: 'Ann Lee',
    });
    expect(screen.getByTestId('speaker-filter')).toHaveValue('Ann Lee');
    await user.selectOptions(screen.getByTestId('language-filter'), 'et');
    await waitFor(() => expect(filesCalls(calls).at(-1)?.query.get('language')).toBe('et'));
    expect(filesCalls(calls).at(-1)?.query.get('tag')).toBe('billing');
    await user.click(screen.getByTestId('clear-filters'));
    await waitFor(() =>
      expect(Object.fromEntries(filesCalls(calls).at(-1)!.query)).toEqual({ page: '1', pageSize: '10' }),
    );
  });

  it('adds and removes a tag in a row, and a tag in a row filters the list by it', async () => {
    const calls = gateway();
    const user = userEvent.setup();
    renderPage(<TranscriptsPage />, { path: '/transcripts', url: '/transcripts', role: 'USER' });
    const row = (await screen.findAllByTestId('file-row'))[1]!;
    expect(within(row).queryAllByTestId('file-tag')).toHaveLength(0);
    await user.click(within(row).getByRole('button', { name: 'Add a tag to call-2.wav' }));
    await user.type(within(row).getByTestId('tag-input'), '  Urgent {Enter}');
    await waitFor(() =>
      expect(
        within(screen.getAllByTestId('file-row')[1]!)
          .getAllByTestId('file-tag')
          .map((tag) => tag.dataset.tag),
      ).toEqual(['urgent']),
    );
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ tags: ['urgent'] });
    await user.click(
      within(screen.getAllByTestId('file-row')[0]!).getByRole('button', { name: 'Remove tag billing from call-1.wav' }),
    );
    await waitFor(() =>
      expect(within(screen.getAllByTestId('file-row')[0]!).queryAllByTestId('file-tag')).toHaveLength(0),
    );
    expect(calls.filter((call) => call.method === 'PUT').at(-1)).toMatchObject({
      path: '/api/files/f1/tags',
      body: { tags: [] },
    });

    await user.click(within(screen.getAllByTestId('file-row')[1]!).getByRole('button', { name: 'urgent' }));
    await waitFor(() => expect(screen.getAllByTestId('file-row')).toHaveLength(1));
    expect(filesCalls(calls).at(-1)?.query.get('tag')).toBe('urgent');
    expect(screen.getByTestId('tag-filter')).toHaveValue('urgent');
  });

  it('exports the selected recordings as one ZIP in the chosen format', async () => {
    const calls = gateway();
    const user = userEvent.setup();
    const created: Blob[] = [];
    URL.createObjectURL = jest.fn((blob: Blob) => {
      created.push(blob);
      return 'blob:zip';
    });
    URL.revokeObjectURL = jest.fn();
    renderPage(<TranscriptsPage />, { path: '/transcripts', url: '/transcripts', role: 'USER' });
    await screen.findAllByTestId('file-row');
    expect(screen.queryByTestId('selection-bar')).toBeNull();
    await user.click(screen.getByRole('checkbox', { name: 'Select call-2.wav' }));
    expect(screen.getByTestId('selection-count')).toHaveTextContent('1 selected');
    await user.click(screen.getByRole('checkbox', { name: 'Select every recording on this page' }));
    expect(screen.getByTestId('selection-count')).toHaveTextContent('2 selected');
    await user.selectOptions(screen.getByTestId('export-format'), 'srt');
    await user.click(screen.getByRole('button', { name: 'Export selected' }));
    await waitFor(() => expect(created).toHaveLength(1));
    expect(calls.find((call) => call.path === '/api/transcripts/export')).toMatchObject({
      method: 'POST',
      body: { fileIds: ['f2', 'f1'], format: 'srt' },
    });
  });
});

// Waiting recordings show their place in the company's line and the company's cap, to its ADMIN;
// a USER's list does not ask for the queue (it would be refused).
/** A list with one recording running and two waiting, and the company's line as the server tells it. */
function queueGateway() {
  return fakeGateway((call) => {
    if (call.path === '/api/files') {
      const items = [
        { ...file(1, null), transcriptionStatus: 'processing' },
        { ...file(2, null), transcriptionStatus: 'pending' },
        { ...file(3, null), transcriptionStatus: 'pending' },
      ];
      return json({ items, page: 1, pageSize: 10, total: items.length, totalPages: 1 });
    }
    if (call.path === '/api/transcripts/queue')
      return json({
        companyId: COMPANY,
        cap: 2,
        running: 1,
        pending: 3,
        items: [
          { fileId: 'f9', position: 1, nextAttemptAt: '2026-01-03T10:00:00.000Z' },
          { fileId: 'f2', position: 2, nextAttemptAt: '2026-01-03T10:00:00.000Z' },
          { fileId: 'f3', position: 3, nextAttemptAt: '2026-01-03T10:00:00.000Z' },
        ],
      });
    if (call.path === '/api/tags') return json([]);
    if (call.path === '/api/clients/dropdown') return json([]);
    return undefined;
  });
}

describe('the company’s transcription queue in the list', () => {
  it('an ADMIN sees each waiting recording’s place in the company’s line and the cap', async () => {
    queueGateway();
    renderPage(<TranscriptsPage />, { path: '/transcripts', url: '/transcripts', role: 'ADMIN' });
    expect(await screen.findByTestId('queue-summary')).toHaveTextContent(
      "Your company's transcriptions: 1 running (at most 2 at once), 3 waiting.",
    );
    const rows = screen.getAllByTestId('file-row');
    expect(within(rows[1]!).getByTestId('queue-position')).toHaveTextContent("Queued: 2 of 3 in your company's line");
    expect(within(rows[2]!).getByTestId('queue-position')).toHaveTextContent('Queued: 3 of 3');
    // The running one has no place in the line.
    expect(within(rows[0]!).queryByTestId('queue-position')).toBeNull();
  });

  it('a USER’s list does not ask for the queue', async () => {
    const calls = queueGateway();
    renderPage(<TranscriptsPage />, { path: '/transcripts', url: '/transcripts', role: 'USER' });
    await screen.findAllByTestId('file-row');
    expect(calls.map((call) => call.path)).not.toContain('/api/transcripts/queue');
    expect(screen.queryByTestId('queue-position')).toBeNull();
  });
});
