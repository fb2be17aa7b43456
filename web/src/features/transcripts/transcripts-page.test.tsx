/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// The transcripts list's client and company columns and filters, with the app's store and RTK
// Query API; only the network is faked.
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeGateway, json, renderPage } from '../../../test/fake-gateway';
import TranscriptsPage from './transcripts-page';

const COMPANY = 'c0000000-0000-4000-8000-000000000001';
const CLIENT = 'b0000000-0000-4000-8000-000000000001';
const file = (n: number, clientId: string | null) => ({
  _id: `f${n}`, companyId: COMPANY, originalName: `call-${n}.wav`, filename: `call-${n}.wav`, size: 1024, mimeType: 'audio/wav', uploadDate: '2026-01-03T10:00:00.000Z',
  status: 'completed', transcriptionStatus: 'completed', transcriptionError: null, clientId, url: '', path: '',
});

function gateway() {
  return fakeGateway((call) => {
    if (call.path === '/api/files') {
      const items = [file(1, CLIENT), file(2, null)].filter((item) => !call.query.get('clientId') || item.clientId === call.query.get('clientId'));
      return json({ items, page: 1, pageSize: 10, total: items.length, totalPages: 1 });
    }
    if (call.path === '/api/clients/dropdown') return json([{ _id: CLIENT, name: 'Northwind' }]);
    if (call.path === '/api/companies/dropdown') return json([{ _id: COMPANY, name: 'Acme' }]);
    return undefined;
  });
}

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
    expect(calls.filter((call) => call.path === '/api/files').at(-1)?.query.get('clientId')).toBe(CLIENT);
  });

  it('a HOST_ADMIN sees each file’s company and must pick the upload’s company first', async () => {
    gateway();
    const user = userEvent.setup();
    renderPage(<TranscriptsPage />, { path: '/transcripts', url: '/transcripts', role: 'HOST_ADMIN', companyId: null });
    expect(await screen.findAllByRole('cell', { name: 'Acme' })).toHaveLength(2);
    const choose = screen.getByRole('button', { name: 'Choose file' });
    expect(choose).toBeDisabled();
    await user.selectOptions(screen.getByTestId('upload-company'), 'Acme');
    expect(choose).toBeEnabled();
  });
});
