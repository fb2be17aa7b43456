/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// Waiting recordings show their place in the company's line and the company's cap, to its ADMIN;
// a USER's list does not ask for the queue (it would be refused).
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, within } from '@testing-library/react';
import { fakeGateway, json, renderPage } from '../../../test/fake-gateway';
import TranscriptsPage from './transcripts-page';

const COMPANY = 'c0000000-0000-4000-8000-000000000001';
const file = (n: number, transcriptionStatus: string) => ({
  _id: `f${n}`,
  companyId: COMPANY,
  originalName: `call-${n}.wav`,
  filename: `call-${n}.wav`,
  size: 1024,
  mimeType: 'audio/wav',
  uploadDate: '2026-01-03T10:00:00.000Z',
  status: 'completed',
  transcriptionStatus,
  transcriptionError: null,
  clientId: null,
  url: '',
  path: '',
  tags: [],
  language: null,
  expectedSpeakers: null,
  speakers: [],
});

function gateway() {
  return fakeGateway((call) => {
    if (call.path === '/api/files') {
      const items = [file(1, 'processing'), file(2, 'pending'), file(3, 'pending')];
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

afterEach(() => localStorage.clear());

describe('the company’s transcription queue in the list', () => {
  it('an ADMIN sees each waiting recording’s place in the company’s line and the cap', async () => {
    gateway();
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
    const calls = gateway();
    renderPage(<TranscriptsPage />, { path: '/transcripts', url: '/transcripts', role: 'USER' });
    await screen.findAllByTestId('file-row');
    expect(calls.map((call) => call.path)).not.toContain('/api/transcripts/queue');
    expect(screen.queryByTestId('queue-position')).toBeNull();
  });
});
