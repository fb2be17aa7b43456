/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// The clients list and a client's profile with the app's store and RTK Query API; only the
// network is faked.
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ClientDetailDto, ClientDto } from '@earshot/contracts';
import { fakeGateway, json, renderPage } from '../../../test/fake-gateway';
import ClientProfilePage from './client-profile-page';
import ClientsPage from './clients-page';

const COMPANY = 'c0000000-0000-4000-8000-000000000001';
const OWNER = 'a0000000-0000-4000-8000-000000000001';
const FILE = 'f0000000-0000-4000-8000-000000000001';
const OTHER_FILE = 'f0000000-0000-4000-8000-000000000002';
const client: ClientDto = {
  _id: 'b0000000-0000-4000-8000-000000000001',
  companyId: COMPANY,
  name: 'Northwind',
  organisation: 'Northwind Ltd',
  email: 'orders@northwind.test',
  phone: '+372 555 0100',
  externalId: 'crm-1',
  notes: '<b>VIP</b>\nsecond line',
  ownerId: OWNER,
  createdAt: '2026-01-01T10:00:00.000Z',
  updatedAt: '2026-01-02T10:00:00.000Z',
};
const detail: ClientDetailDto = {
  ...client,
  recordings: [
    { fileId: FILE, name: 'call.wav', status: 'completed', duration: 75, uploadedAt: '2026-01-03T10:00:00.000Z' },
  ],
};
const page = { items: [client], page: 1, pageSize: 20, total: 1, totalPages: 1 };
const file = (id: string, name: string, clientId: string | null) => ({
  _id: id,
  companyId: COMPANY,
  originalName: name,
  filename: name,
  size: 1,
  mimeType: 'audio/wav',
  uploadDate: '2026-01-03T10:00:00.000Z',
  status: 'completed',
  transcriptionStatus: 'completed',
  transcriptionError: null,
  clientId,
  url: '',
  path: '',
});

afterEach(() => localStorage.clear());

describe('clients list', () => {
  it('an ADMIN sees owners by name, gets the server’s duplicate external id on the field, and deletes with a warning that recordings stay', async () => {
    const calls = fakeGateway((call) => {
      if (call.path === '/api/clients' && call.method === 'GET') return json(page);
      if (call.path === '/api/clients' && call.method === 'POST')
        return json(
          {
            message: 'A client with this external id already exists',
            code: 'CONFLICT',
            details: [{ field: 'body.externalId' }],
          },
          409,
        );
      if (call.path === '/api/users/dropdown') return json([{ _id: OWNER, name: 'Ada Admin' }]);
      if (call.path === `/api/clients/${client._id}` && call.method === 'DELETE')
        return json({ message: 'Client deleted' });
      return undefined;
    });
    const user = userEvent.setup();
    renderPage(<ClientsPage />, { path: '/clients', url: '/clients', role: 'ADMIN' });
    expect(await screen.findByRole('cell', { name: 'Ada Admin' })).toBeInTheDocument();

    await user.click(screen.getByTestId('add-client'));
    const form = screen.getByTestId('client-form');
    await user.click(within(form).getByRole('button', { name: 'Add client' }));
    await waitFor(() => expect(within(form).getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true'));
    await user.type(within(form).getByLabelText('Name'), 'Contoso');
    await user.type(within(form).getByLabelText('Phone'), 'call me');
    await user.click(within(form).getByRole('button', { name: 'Add client' }));
    await waitFor(() => expect(within(form).getByLabelText('Phone')).toHaveAttribute('aria-invalid', 'true'));
    expect(within(form).getByLabelText('Name')).toHaveAttribute('aria-invalid', 'false');
    await user.clear(within(form).getByLabelText('Phone'));
    await user.type(within(form).getByLabelText('External id'), 'crm-1');
    await user.selectOptions(within(form).getByLabelText('Owner'), 'Ada Admin');
    await user.click(within(form).getByRole('button', { name: 'Add client' }));
    await waitFor(() => expect(within(form).getByLabelText('External id')).toHaveAttribute('aria-invalid', 'true'));
    expect(within(form).getByText('A client with this external id already exists')).toBeInTheDocument();
    // Blank optional fields go as null (no value), not as empty strings the schema would refuse.
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      name: 'Contoso',
      organisation: null,
      email: null,
      phone: null,
      externalId: 'crm-1',
      notes: null,
      ownerId: OWNER,
    });
    await user.click(within(form).getByRole('button', { name: 'Cancel' }));

    await user.click(screen.getByRole('button', { name: 'Actions for Northwind' }));
    await user.click(screen.getByTestId('delete-client'));
    expect(
      screen.getByText('Delete the client Northwind? Its recordings are kept: they are only unlinked from it.'),
    ).toBeInTheDocument();
    await user.click(screen.getByTestId('confirm-yes'));
    await waitFor(() => expect(calls.some((call) => call.method === 'DELETE')).toBe(true));
  });

  it('a CALLER, who may not list users, gets no owner column or picker', async () => {
    const calls = fakeGateway((call) => (call.path === '/api/clients' ? json(page) : undefined));
    const user = userEvent.setup();
    renderPage(<ClientsPage />, { path: '/clients', url: '/clients', role: 'CALLER' });
    await screen.findByRole('link', { name: 'Northwind' });
    expect(screen.queryByRole('columnheader', { name: /owner/i })).toBeNull();
    await user.click(screen.getByTestId('add-client'));
    expect(within(screen.getByTestId('client-form')).queryByLabelText('Owner')).toBeNull();
    expect(calls.some((call) => call.path === '/api/users/dropdown')).toBe(false);
  });
});

describe('client profile', () => {
  it('shows details as text, recordings with View, a timeline, and links and unlinks recordings', async () => {
    const calls = fakeGateway((call) => {
      if (call.path === `/api/clients/${client._id}`) return json(detail);
      if (call.path === '/api/users/dropdown') return json([{ _id: OWNER, name: 'Ada Admin' }]);
      if (call.path === '/api/tasks') return json({ items: [], nextCursor: null });
      if (call.path === '/api/files')
        return json({
          items: [file(FILE, 'call.wav', client._id), file(OTHER_FILE, 'other.wav', null)],
          page: 1,
          pageSize: 100,
          total: 2,
          totalPages: 1,
        });
      if (call.path === '/api/transcripts/link-client')
        return json({
          message: 'ok',
          transcriptId: 't',
          fileId: (call.body as { transcriptId: string }).transcriptId,
          clientId: (call.body as { clientId: string | null }).clientId,
        });
      return undefined;
    });
    const user = userEvent.setup();
    renderPage(<ClientProfilePage />, { path: '/client/:clientId', url: `/client/${client._id}`, role: 'ADMIN' });
    expect(await screen.findByRole('heading', { name: 'Northwind' })).toBeInTheDocument();
    const details = screen.getByTestId('client-details');
    expect(await within(details).findByText('Ada Admin')).toBeInTheDocument();
    expect(details.querySelector('b')).toBeNull();
    expect(details).toHaveTextContent('<b>VIP</b>');
    expect(screen.getByRole('link', { name: 'View call.wav' })).toHaveAttribute('href', `/transcripts/${FILE}`);
    expect(screen.getByRole('cell', { name: '1:15' })).toBeInTheDocument();
    expect(
      within(screen.getByTestId('client-timeline'))
        .getAllByRole('listitem')
        .map((item) => item.querySelector('p')?.textContent),
    ).toEqual(['Call call.wav1:15', 'Details last changed', 'Client added']);

    await user.click(screen.getByTestId('link-recording'));
    const picker = within(screen.getByTestId('link-recording-form')).getByLabelText('Recording');
    await within(picker).findByRole('option', { name: 'other.wav' });
    expect(within(picker).queryByRole('option', { name: 'call.wav' })).toBeNull();
    await user.selectOptions(picker, 'other.wav');
    await user.click(screen.getByRole('button', { name: 'Link' }));
    await user.click(await screen.findByRole('button', { name: 'Unlink call.wav' }));
    await waitFor(() =>
      expect(calls.filter((call) => call.path === '/api/transcripts/link-client').map((call) => call.body)).toEqual([
        { transcriptId: OTHER_FILE, clientId: client._id },
        { transcriptId: FILE, clientId: null },
      ]),
    );
  });
});
