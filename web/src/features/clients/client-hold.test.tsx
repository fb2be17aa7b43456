/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// A client's legal hold with the app's store and RTK Query API; only `fetch` is faked:
// the reason is required, PUT carries {hold, reason}, the badge shows the hold the client reads
// back, a held client's delete says the server's 409, and a CALLER gets no control.
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HOLD_MESSAGES, type ClientDetailDto } from '@earshot/contracts';
import { fakeGateway, json, renderPage } from '../../../test/fake-gateway';
import ClientProfilePage from './client-profile-page';
import ClientsPage from './clients-page';

const COMPANY = 'c0000000-0000-4000-8000-000000000001';
const CLIENT = 'b0000000-0000-4000-8000-000000000001';
const base: ClientDetailDto = {
  _id: CLIENT,
  companyId: COMPANY,
  name: 'Northwind',
  organisation: null,
  email: null,
  phone: null,
  externalId: null,
  notes: null,
  ownerId: null,
  createdAt: '2026-01-01T10:00:00.000Z',
  updatedAt: '2026-01-01T10:00:00.000Z',
  recordings: [],
  hold: null,
};

afterEach(() => localStorage.clear());

function gateway(state: { client: ClientDetailDto }) {
  return fakeGateway((call) => {
    if (call.path === `/api/clients/${CLIENT}` && call.method === 'GET') return json(state.client);
    if (call.path === `/api/clients/${CLIENT}` && call.method === 'DELETE')
      return json({ message: HOLD_MESSAGES.clientHeld, code: 'CONFLICT' }, 409);
    if (call.path === `/api/clients/${CLIENT}/hold` && call.method === 'PUT') {
      const { hold, reason } = call.body as { hold: boolean; reason: string };
      const at = '2026-02-03T10:00:00.000Z';
      state.client = { ...state.client, hold: hold ? { reason, by: 'me', at } : null };
      return json({ hold, reason, by: 'me', at });
    }
    if (call.path === '/api/clients' && call.method === 'GET')
      return json({ items: [state.client], page: 1, pageSize: 20, total: 1, totalPages: 1 });
    if (call.path === '/api/tasks') return json({ items: [], nextCursor: null });
    if (call.path === '/api/users/dropdown') return json([]);
    return undefined;
  });
}

describe('client legal hold', () => {
  it('an ADMIN must give a reason; the hold is sent as {hold, reason} and the badge shows it with the reason; lifting asks again', async () => {
    const calls = gateway({ client: base });
    const user = userEvent.setup();
    renderPage(<ClientProfilePage />, { path: '/client/:clientId', url: `/client/${CLIENT}`, role: 'ADMIN' });
    await user.click(await screen.findByRole('button', { name: 'Place legal hold' }));
    const dialog = await screen.findByTestId('hold-dialog');
    expect(within(dialog).getByRole('heading', { name: 'Place a legal hold on Northwind' })).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Reason'), '   ');
    await user.click(within(dialog).getByRole('button', { name: 'Place legal hold' }));
    await waitFor(() => expect(within(dialog).getByLabelText('Reason')).toHaveAttribute('aria-invalid', 'true'));
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);

    await user.type(within(dialog).getByLabelText('Reason'), ' Subpoena 12 ');
    await user.click(within(dialog).getByRole('button', { name: 'Place legal hold' }));
    await waitFor(() => expect(screen.queryByTestId('hold-dialog')).toBeNull());
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ hold: true, reason: 'Subpoena 12' });
    const badge = await screen.findByTestId('hold-badge');
    expect(badge).toHaveTextContent('Held');
    expect(badge.getAttribute('title')).toMatch(/Subpoena 12/);
    expect(screen.getByText('Legal hold placed')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Lift legal hold' }));
    const lift = await screen.findByTestId('hold-dialog');
    await user.type(within(lift).getByLabelText('Reason'), 'Withdrawn');
    await user.click(within(lift).getByRole('button', { name: 'Lift legal hold' }));
    await waitFor(() => expect(screen.queryByTestId('hold-badge')).toBeNull());
    expect(calls.filter((call) => call.method === 'PUT').at(-1)?.body).toEqual({ hold: false, reason: 'Withdrawn' });
  });

  it('a CALLER sees a held client’s badge but no control', async () => {
    gateway({ client: { ...base, hold: { reason: 'Dispute', by: 'x', at: '2026-02-03T10:00:00.000Z' } } });
    renderPage(<ClientProfilePage />, { path: '/client/:clientId', url: `/client/${CLIENT}`, role: 'CALLER' });
    expect(await screen.findByTestId('hold-badge')).toBeInTheDocument();
    expect(screen.queryByTestId('hold-toggle')).toBeNull();
  });

  it('deleting a held client shows the server’s 409 message, and the list shows the badge', async () => {
    gateway({ client: { ...base, hold: { reason: 'Dispute', by: 'x', at: '2026-02-03T10:00:00.000Z' } } });
    const user = userEvent.setup();
    renderPage(<ClientsPage />, { path: '/clients', url: '/clients', role: 'ADMIN' });
    await screen.findByRole('link', { name: 'Northwind' });
    expect(screen.getByTestId('hold-badge')).toHaveTextContent('Held');
    await user.click(screen.getByRole('button', { name: 'Actions for Northwind' }));
    await user.click(screen.getByTestId('delete-client'));
    await user.click(screen.getByTestId('confirm-yes'));
    expect(await screen.findByText(HOLD_MESSAGES.clientHeld)).toBeInTheDocument();
  });
});
