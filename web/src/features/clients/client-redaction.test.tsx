/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// With the company's redaction on, a client may be saved with a number hidden in its fields: the
// page's "Client added" says so, with the notice every form that saves free text shows.
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ClientCreateBody, ClientSaved } from '@earshot/contracts';
import { fakeGateway, json, renderPage } from '../../../test/fake-gateway';
import ClientsPage from './clients-page';

const COMPANY = 'c0000000-0000-4000-8000-000000000001';
const empty = { items: [], page: 1, pageSize: 20, total: 0, totalPages: 0 };

function saved(body: ClientCreateBody, redacted?: number): ClientSaved {
  return {
    _id: 'b0000000-0000-4000-8000-000000000001',
    companyId: COMPANY,
    name: body.name,
    organisation: null,
    email: null,
    phone: null,
    externalId: null,
    notes: redacted ? 'Paid with [card number]' : (body.notes ?? null),
    ownerId: null,
    createdAt: '2026-01-01T10:00:00.000Z',
    updatedAt: '2026-01-01T10:00:00.000Z',
    ...(redacted ? { redacted } : {}),
  };
}

afterEach(() => localStorage.clear());

describe('clients and redaction', () => {
  it('a client saved with a number hidden says so; one saved as typed says only that it was added', async () => {
    fakeGateway((call) => {
      if (call.path === '/api/clients' && call.method === 'GET') return json(empty);
      if (call.path === '/api/clients' && call.method === 'POST') {
        const body = call.body as ClientCreateBody;
        return json(saved(body, /\d{4}/.test(body.notes ?? '') ? 1 : undefined), 201);
      }
      return undefined;
    });
    const user = userEvent.setup();
    renderPage(<ClientsPage />, { path: '/clients', url: '/clients', role: 'CALLER' });
    const add = async (name: string, notes: string) => {
      await user.click(await screen.findByTestId('add-client'));
      const form = screen.getByTestId('client-form');
      await user.type(within(form).getByLabelText('Name'), name);
      await user.type(within(form).getByLabelText('Notes'), notes);
      await user.click(within(form).getByRole('button', { name: 'Add client' }));
      await waitFor(() => expect(screen.queryByTestId('client-form')).toBeNull());
      return screen.getAllByTestId('toast-success').at(-1)!;
    };
    const told = await add('Dana', 'Paid with 4111111111111111');
    expect(told).toHaveTextContent(
      'Removed before it was saved: card numbers, account numbers, IDs, e-mail addresses or phone numbers (1).',
    );
    const plain = await add('Liis', 'Call in the morning');
    expect(plain).not.toHaveTextContent('Removed');
  });
});
