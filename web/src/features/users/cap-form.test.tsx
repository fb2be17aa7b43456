/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// The users page's monthly cap column and form with the app's store and RTK Query API; only the
// network is faked.
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminUserDto } from '@earshot/contracts';
import { fakeGateway, json, renderPage } from '../../../test/fake-gateway';
import UsersPage from './users-page';

const COMPANY = 'c0000000-0000-4000-8000-000000000001';
const person = (n: number, monthlyCredits: number | null): AdminUserDto => ({
  _id: `u${n}`,
  firstName: `First${n}`,
  lastName: `Last${n}`,
  email: `user${n}@example.com`,
  avatar: null,
  companyId: COMPANY,
  roles: { role: { code: 'USER' } },
  role: 'USER',
  status: 'active',
  twoStepEnabled: false,
  lastSignInAt: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  companyName: 'Acme',
  passwordChangeRequired: false,
  invitationExpiresAt: null,
  monthlyCredits,
});

function gateway(caps: Record<string, number | null>) {
  return fakeGateway((call) => {
    if (call.path === '/api/users' && call.method === 'GET')
      return json({
        items: [person(1, caps.u1 ?? null), person(2, caps.u2 ?? null)],
        page: 1,
        pageSize: 20,
        total: 2,
        totalPages: 1,
      });
    if (call.path === '/api/roles') return json([{ code: 'USER', name: 'USER', description: 'USER' }]);
    const cap = /^\/api\/users\/(u\d)\/cap$/.exec(call.path);
    if (cap && call.method === 'PUT') {
      caps[cap[1]!] = (call.body as { monthlyCredits: number | null }).monthlyCredits;
      return json({ _id: cap[1], monthlyCredits: caps[cap[1]!] });
    }
    return undefined;
  });
}

afterEach(() => localStorage.clear());

describe('user monthly cap', () => {
  it('shows each user’s cap and lets an ADMIN set one, refusing zero', async () => {
    const sent = gateway({ u1: 250, u2: null });
    const user = userEvent.setup();
    renderPage(<UsersPage />, { path: '/users', url: '/users', role: 'ADMIN' });
    const rows = await screen.findAllByTestId('data-table-row');
    expect(rows.map((row) => within(row).getByTestId('user-cap').textContent)).toEqual(['250', 'No cap']);
    await user.click(within(rows[1]!).getByTestId('user-actions'));
    await user.click(screen.getByRole('menuitem', { name: 'Set monthly cap' }));
    const form = screen.getByTestId('cap-form');
    await user.type(within(form).getByLabelText('Credits per month'), '0');
    await user.click(within(form).getByRole('button', { name: 'Save cap' }));
    expect(
      await within(form).findByText('Enter a positive number with at most four decimals, or leave blank'),
    ).toBeInTheDocument();
    await user.clear(within(form).getByLabelText('Credits per month'));
    await user.type(within(form).getByLabelText('Credits per month'), '120.5');
    await user.click(within(form).getByRole('button', { name: 'Save cap' }));
    await waitFor(() =>
      expect(sent.find((call) => call.method === 'PUT')).toMatchObject({
        path: '/api/users/u2/cap',
        body: { monthlyCredits: 120.5 },
      }),
    );
    expect(await screen.findByText('Monthly cap saved')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getAllByTestId('user-cap').map((cell) => cell.textContent)).toEqual(['250', '120.5']),
    );
  });

  it('a blank cap removes it', async () => {
    const sent = gateway({ u1: 250 });
    const user = userEvent.setup();
    renderPage(<UsersPage />, { path: '/users', url: '/users', role: 'HOST_ADMIN', companyId: null });
    const rows = await screen.findAllByTestId('data-table-row');
    await user.click(within(rows[0]!).getByTestId('user-actions'));
    await user.click(screen.getByRole('menuitem', { name: 'Set monthly cap' }));
    const input = within(screen.getByTestId('cap-form')).getByLabelText('Credits per month');
    expect(input).toHaveValue('250');
    await user.clear(input);
    await user.click(screen.getByRole('button', { name: 'Save cap' }));
    await waitFor(() => expect(sent.find((call) => call.method === 'PUT')?.body).toEqual({ monthlyCredits: null }));
  });
});
