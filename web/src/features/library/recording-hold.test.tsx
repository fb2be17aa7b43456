/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// A recording's legal hold: the viewer's control sends {hold, reason} after a reason is
// given, the badge follows, a USER gets none; the list shows the badge and a held recording's
// delete says the server's 409. With the app's store and RTK Query API; only `fetch` is faked.
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HOLD_MESSAGES } from '@earshot/contracts';
import { fakeGateway, json, renderPage } from '../../../test/fake-gateway';
import { RecordingHold } from '../../entities/holds';
import TranscriptsPage from './transcripts-page';

const FILE = 'f0000000-0000-4000-8000-000000000001';
const item = (hold: boolean) => ({
  _id: FILE,
  companyId: 'c0000000-0000-4000-8000-000000000001',
  originalName: 'call.wav',
  filename: 'call.wav',
  size: 1024,
  mimeType: 'audio/wav',
  uploadDate: '2026-01-03T10:00:00.000Z',
  status: 'completed',
  transcriptionStatus: 'completed',
  transcriptionError: null,
  clientId: null,
  url: '',
  path: '',
  tags: [],
  language: null,
  expectedSpeakers: null,
  speakers: [],
  hold,
  holdReason: hold ? 'Dispute 9' : null,
  holdAt: hold ? '2026-02-01T10:00:00.000Z' : null,
});

function gateway(state: { hold: boolean }) {
  return fakeGateway((call) => {
    if (call.path === `/api/files/${FILE}` && call.method === 'GET') return json(item(state.hold));
    if (call.path === `/api/files/${FILE}/hold` && call.method === 'PUT') {
      const { hold, reason } = call.body as { hold: boolean; reason: string };
      state.hold = hold;
      return json({ hold, reason, by: 'me', at: '2026-02-03T10:00:00.000Z' });
    }
    if (call.path === '/api/files')
      return json({ items: [item(state.hold)], page: 1, pageSize: 10, total: 1, totalPages: 1 });
    if (call.path === `/api/transcripts/${FILE}` && call.method === 'DELETE')
      return json({ message: HOLD_MESSAGES.file, code: 'CONFLICT' }, 409);
    if (call.path === '/api/tags') return json([]);
    if (call.path === '/api/clients/dropdown') return json([]);
    return undefined;
  });
}

afterEach(() => localStorage.clear());

describe('recording legal hold', () => {
  it('an ADMIN places a hold only with a reason; the badge then shows the reason', async () => {
    const calls = gateway({ hold: false });
    const user = userEvent.setup();
    renderPage(<RecordingHold fileId={FILE} name="call.wav" onChanged={() => undefined} />, {
      path: '/transcripts/:id',
      url: `/transcripts/${FILE}`,
      role: 'ADMIN',
    });
    await user.click(await screen.findByRole('button', { name: 'Place legal hold' }));
    const dialog = await screen.findByTestId('hold-dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Place legal hold' }));
    await waitFor(() => expect(within(dialog).getByLabelText('Reason')).toHaveAttribute('aria-invalid', 'true'));
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);
    await user.type(within(dialog).getByLabelText('Reason'), 'Complaint 77');
    await user.click(within(dialog).getByRole('button', { name: 'Place legal hold' }));
    expect(await screen.findByTestId('hold-badge')).toHaveAttribute(
      'title',
      expect.stringMatching(/Complaint 77/) as unknown as string,
    );
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ hold: true, reason: 'Complaint 77' });
    expect(screen.getByRole('button', { name: 'Lift legal hold' })).toBeInTheDocument();
  });

  it('a USER sees a held recording’s badge with the file’s reason, and no control', async () => {
    gateway({ hold: true });
    renderPage(<RecordingHold fileId={FILE} name="call.wav" onChanged={() => undefined} />, {
      path: '/transcripts/:id',
      url: `/transcripts/${FILE}`,
      role: 'USER',
    });
    expect(await screen.findByTestId('hold-badge')).toHaveTextContent('Held');
    expect(screen.getByTestId('hold-badge').getAttribute('title')).toMatch(/Dispute 9/);
    expect(screen.queryByTestId('hold-toggle')).toBeNull();
  });

  it('the list marks a held recording and shows the server’s 409 when it is deleted', async () => {
    gateway({ hold: true });
    const user = userEvent.setup();
    renderPage(<TranscriptsPage />, { path: '/transcripts', url: '/transcripts', role: 'ADMIN' });
    const row = await screen.findByTestId('file-row');
    expect(within(row).getByTestId('hold-badge')).toHaveTextContent('Held');
    await user.click(within(row).getByTestId('delete-file'));
    await user.click(screen.getByTestId('confirm-yes'));
    expect(await screen.findByText(HOLD_MESSAGES.file)).toBeInTheDocument();
  });
});
