/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// The users page with the app's store and RTK Query API; only the network is faked.
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminUserDto } from '@earshot/contracts';
import type { Role } from '@earshot/contracts/constants';
import { fakeGateway, json, renderPage, type Call } from '../../../test/fake-gateway';
import { roleOptions } from './model';
import UsersPage from './users-page';

const COMPANY = 'c0000000-0000-4000-8000-000000000001';
const ROLES = (['HOST_ADMIN', 'ADMIN', 'USER', 'CALLER'] as const).map((code) => ({
  code,
  name: code,
  description: code,
}));

function person(n: number, role: Role, extra: Partial<AdminUserDto> = {}): AdminUserDto {
  return {
    _id: `u${n}`,
    firstName: `First${n}`,
    lastName: `Last${n}`,
    email: `user${n}@example.com`,
    avatar: null,
    companyId: COMPANY,
    roles: { role: { code: role } },
    role,
    status: 'active',
    twoStepEnabled: false,
    lastSignInAt: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    companyName: 'Acme',
    passwordChangeRequired: false,
    invitationExpiresAt: null,
    monthlyCredits: null,
    ...extra,
  };
}
const INVITED = person(3, 'USER', { status: 'invited', invitationExpiresAt: '2026-01-08T00:00:00.000Z' });
const pageOf = (items: AdminUserDto[]) => ({ items, page: 1, pageSize: 20, total: items.length, totalPages: 1 });

function gateway(
  create: (call: Call) => { status: number; body: unknown } = (call) => ({
    status: 201,
    body: { ...person(9, 'USER'), temporaryPassword: 'Tmp-very-secret-1', ...(call.body as object) },
  }),
) {
  return fakeGateway((call) => {
    if (call.path === '/api/users' && call.method === 'GET')
      return json(pageOf([person(1, 'ADMIN'), person(2, 'USER', { twoStepEnabled: true }), INVITED]));
    if (call.path === `/api/users/${INVITED._id}/invitation`)
      return call.method === 'POST' ? json(INVITED) : { status: 204, body: null };
    if (call.path === '/api/users/register' && call.method === 'POST') return create(call);
    // An older server listing every role: the page still never offers HOST_ADMIN to an ADMIN.
    if (call.path === '/api/roles') return json(ROLES);
    if (call.path === '/api/companies/dropdown') return json([{ _id: COMPANY, name: 'Acme' }]);
    return undefined;
  });
}

afterEach(() => localStorage.clear());

async function openCreate() {
  const user = userEvent.setup();
  await screen.findAllByTestId('data-table-row');
  await waitFor(() => expect(screen.getByTestId('add-user')).toBeEnabled());
  await user.click(screen.getByTestId('add-user'));
  return { user, form: screen.getByTestId('create-user-form') };
}

describe('users page', () => {
  it('role choices for an ADMIN leave HOST_ADMIN out', () => {
    expect(roleOptions(ROLES, 'ADMIN').map((r) => r.code)).toEqual(['ADMIN', 'USER', 'CALLER']);
    expect(roleOptions(ROLES, 'HOST_ADMIN').map((r) => r.code)).toEqual(['HOST_ADMIN', 'ADMIN', 'USER', 'CALLER']);
    expect(
      roleOptions([...ROLES.slice(1, 3), { ...ROLES[3]!, assignable: false }], 'ADMIN').map((r) => r.code),
    ).toEqual(['ADMIN', 'USER']);
  });

  it('an ADMIN sees their company’s users without a company column, and the role picker has no HOST_ADMIN', async () => {
    gateway();
    renderPage(<UsersPage />, { path: '/users', url: '/users', role: 'ADMIN' });
    expect(await screen.findAllByTestId('data-table-row')).toHaveLength(3);
    expect(screen.queryByRole('columnheader', { name: /company/i })).toBeNull();
    expect(screen.queryByRole('option', { name: 'Platform administrator' })).toBeNull();
    const { form } = await openCreate();
    const options = within(within(form).getByLabelText('Role'))
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(options).toEqual(['Company administrator', 'User', 'Caller']);
    expect(within(form).queryByLabelText('Company')).toBeNull();
  });

  it('shows each field’s error on the field, the server’s 409 on the e-mail, and a HOST_ADMIN must pick a company', async () => {
    const calls = gateway(() => ({
      status: 409,
      body: {
        message: 'A user with this email already exists in this company',
        code: 'CONFLICT',
        details: { field: 'body.email' },
      },
    }));
    renderPage(<UsersPage />, { path: '/users', url: '/users', role: 'HOST_ADMIN', companyId: null });
    const { user, form } = await openCreate();
    await user.click(within(form).getByLabelText(/Set a password now/));
    await user.type(within(form).getByLabelText('E-mail'), 'not-an-email');
    await user.type(within(form).getByLabelText('Password'), 'short');
    await user.click(within(form).getByRole('button', { name: 'Add user' }));
    const errorOf = (name: string) =>
      document.getElementById(within(form).getByLabelText(name).getAttribute('aria-describedby')!.split(' ')[0]!)
        ?.textContent;
    await waitFor(() => expect(within(form).getByLabelText('First name')).toHaveAttribute('aria-invalid', 'true'));
    for (const name of ['First name', 'Last name', 'E-mail', 'Password', 'Company']) {
      expect(within(form).getByLabelText(name)).toHaveAttribute('aria-invalid', 'true');
    }
    expect(errorOf('First name')).toBe('Required');
    expect(errorOf('E-mail')).toBe('Enter an e-mail address like name@example.com');
    expect(errorOf('Company')).toBe('Choose the company this user belongs to');
    expect(errorOf('Password')).toBe('must be at least 8 characters');
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    await user.type(within(form).getByLabelText('First name'), 'Ada');
    await user.type(within(form).getByLabelText('Last name'), 'Lovelace');
    await user.clear(within(form).getByLabelText('E-mail'));
    await user.type(within(form).getByLabelText('E-mail'), 'ada@example.com');
    await user.type(within(form).getByLabelText('Password'), '-long-enough');
    await user.selectOptions(within(form).getByLabelText('Company'), 'Acme');
    await user.click(within(form).getByRole('button', { name: 'Add user' }));
    await waitFor(() => expect(errorOf('E-mail')).toBe('A user with this email already exists in this company'));
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      role: 'USER',
      companyId: COMPANY,
      password: 'short-long-enough',
    });
  });

  it('shows a generated temporary password once, then forgets it', async () => {
    const calls = gateway();
    renderPage(<UsersPage />, { path: '/users', url: '/users', role: 'ADMIN' });
    const { user, form } = await openCreate();
    await user.type(within(form).getByLabelText('First name'), 'Grace');
    await user.type(within(form).getByLabelText('Last name'), 'Hopper');
    await user.type(within(form).getByLabelText('E-mail'), 'grace@example.com');
    await user.click(within(form).getByRole('button', { name: 'Add user' }));
    expect(await screen.findByTestId('temporary-password')).toHaveTextContent('Tmp-very-secret-1');
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'grace@example.com',
      role: 'USER',
    });
    await user.click(screen.getByRole('button', { name: 'I have noted it' }));
    expect(screen.queryByTestId('temporary-password')).toBeNull();
    expect(document.body.textContent).not.toContain('Tmp-very-secret-1');
  });

  it('invites by e-mail instead of giving a password: no password is asked for or shown', async () => {
    const calls = gateway((call) => ({
      status: 201,
      body: {
        ...person(9, 'USER', { status: 'invited', invitationExpiresAt: '2026-01-08T00:00:00.000Z' }),
        ...(call.body as object),
      },
    }));
    renderPage(<UsersPage />, { path: '/users', url: '/users', role: 'ADMIN' });
    const { user, form } = await openCreate();
    // Until an invitation is chosen, the password choices are there.
    expect(within(form).getByLabelText(/Generate a temporary password/)).toBeChecked();
    await user.click(within(form).getByLabelText(/Send an invitation/));
    expect(within(form).queryByLabelText(/Generate a temporary password/)).toBeNull();
    expect(within(form).queryByLabelText(/Set a password now/)).toBeNull();
    await user.type(within(form).getByLabelText('First name'), 'Ivy');
    await user.type(within(form).getByLabelText('Last name'), 'Invited');
    await user.type(within(form).getByLabelText('E-mail'), 'ivy@example.com');
    await user.click(within(form).getByRole('button', { name: 'Add user' }));
    expect(await screen.findByText('Invitation sent to ivy@example.com')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      firstName: 'Ivy',
      lastName: 'Invited',
      email: 'ivy@example.com',
      role: 'USER',
      invite: true,
    });
    expect(screen.queryByTestId('temporary-password')).toBeNull();

    // Choosing a password again brings its choices back.
    await user.click(screen.getByTestId('add-user'));
    const again = screen.getByTestId('create-user-form');
    await user.click(within(again).getByLabelText('Set an initial password'));
    await user.click(within(again).getByLabelText(/Set a password now/));
    expect(within(again).getByLabelText('Password')).toBeInTheDocument();
  });

  it('an invited user shows as Invited with the link’s expiry, and offers resend and revoke (confirmed) instead of password actions', async () => {
    const calls = gateway();
    const user = userEvent.setup();
    renderPage(<UsersPage />, { path: '/users', url: '/users', role: 'ADMIN' });
    const row = (await screen.findAllByTestId('data-table-row')).find((r) => within(r).queryByText(INVITED.email))!;
    expect(within(row).getByTestId('user-status')).toHaveTextContent(/^InvitedLink valid until/);
    await user.click(within(row).getByRole('button', { name: `Actions for ${INVITED.firstName} ${INVITED.lastName}` }));
    const menu = screen.getByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Edit', 'Resend invitation', 'Revoke invitation']);
    await user.click(within(menu).getByRole('menuitem', { name: 'Resend invitation' }));
    expect(await screen.findByText(`Invitation sent again to ${INVITED.email}`)).toBeInTheDocument();
    expect(
      calls.filter((call) => call.path === `/api/users/${INVITED._id}/invitation`).map((call) => call.method),
    ).toEqual(['POST']);

    await user.click(within(row).getByRole('button', { name: `Actions for ${INVITED.firstName} ${INVITED.lastName}` }));
    await user.click(screen.getByRole('menuitem', { name: 'Revoke invitation' }));
    expect(
      screen.getByText(
        `Revoke the invitation of ${INVITED.firstName} ${INVITED.lastName}? The link stops working and this invited user is deleted.`,
      ),
    ).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    await user.click(screen.getByTestId('confirm-yes'));
    expect(await screen.findByText('Invitation revoked')).toBeInTheDocument();
    expect(
      calls.filter((call) => call.path === `/api/users/${INVITED._id}/invitation`).map((call) => call.method),
    ).toEqual(['POST', 'DELETE']);
  });
});
