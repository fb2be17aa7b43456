/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// The B2C users page with the app's store and RTK Query API; only `fetch` is faked.
import { describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeGateway, renderPage } from '../../../test/fake-gateway';
import type { B2cUser } from './b2c-users-api';
import B2cUsersPage from './b2c-users-page';

const SOLO = '00000000-0000-4000-8000-0000000000b2';
const ann: B2cUser = {
  _id: 'u1',
  firstName: 'Ann',
  lastName: 'Lee',
  email: 'ann@solo.test',
  companyId: SOLO,
  companyName: 'Solo',
  status: 'active',
  recordings: 4,
  storageUsed: 3 * 1024 ** 2,
  lastSignInAt: null,
};
const page = (items: B2cUser[]) => ({ items, page: 1, pageSize: 20, total: items.length, totalPages: 1 });

describe('B2C users page', () => {
  it('lists consumers, searches, disables and deletes after confirming', async () => {
    let users = [ann];
    const sent = fakeGateway((request) => {
      if (request.path === '/api/users/b2c') return { status: 200, body: page(users) };
      if (request.path === '/api/companies') return { status: 200, body: { items: [{ _id: SOLO, name: 'Solo' }] } };
      if (request.method === 'PUT') {
        users = [{ ...ann, status: 'disabled' }];
        return { status: 200, body: {} };
      }
      if (request.method === 'DELETE') {
        users = [];
        return { status: 204 };
      }
      return undefined;
    });
    const user = userEvent.setup();
    renderPage(<B2cUsersPage />, { path: '/b2c-users', url: '/b2c-users', role: 'HOST_ADMIN', companyId: null });
    const row = (await screen.findAllByTestId('data-table-row'))[0]!;
    expect(row).toHaveTextContent('Ann Leeann@solo.testSoloActive43 MBNever');
    expect(sent.find((request) => request.path === '/api/companies')!.query.get('type')).toBe('b2c');

    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'ann{Enter}');
    await waitFor(() =>
      expect(
        sent
          .filter((request) => request.path === '/api/users/b2c')
          .at(-1)!
          .query.get('search'),
      ).toBe('ann'),
    );

    await user.click(screen.getByRole('button', { name: 'Disable Ann Lee' }));
    expect(sent.find((request) => request.method === 'PUT')).toMatchObject({
      path: '/api/users/u1',
      body: { status: 'disabled' },
    });
    expect(await screen.findByRole('button', { name: 'Enable Ann Lee' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Delete Ann Lee' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Delete this consumer and everything they recorded?' })).getByTestId(
        'confirm-yes',
      ),
    );
    expect(await screen.findByText('No consumers found')).toBeInTheDocument();
    expect(sent.find((request) => request.method === 'DELETE')!.path).toBe('/api/users/u1');
  });

  it('creates a consumer in a B2C company, with the form’s rules and the server’s 409 on the field', async () => {
    const sent = fakeGateway((request) => {
      if (request.path === '/api/users/b2c') return { status: 200, body: page([]) };
      if (request.path === '/api/companies')
        return {
          status: 200,
          body: {
            items: [
              { _id: SOLO, name: 'Solo' },
              { _id: `${SOLO.slice(0, -1)}3`, name: 'Duo' },
            ],
          },
        };
      if (request.path === '/api/users/register')
        return {
          status: 409,
          body: {
            message: 'A user with this email already exists',
            code: 'CONFLICT',
            details: [{ field: 'body.email', message: 'is already taken' }],
          },
        };
      return undefined;
    });
    const user = userEvent.setup();
    renderPage(<B2cUsersPage />, { path: '/b2c-users', url: '/b2c-users', role: 'HOST_ADMIN', companyId: null });
    await waitFor(() => expect(screen.getByTestId('consumer-add')).toBeEnabled());
    await user.click(screen.getByTestId('consumer-add'));
    const form = screen.getByTestId('consumer-form');
    await user.type(within(form).getByLabelText('E-mail'), 'not-an-email');
    await user.type(within(form).getByLabelText('Initial password'), 'short');
    await user.click(within(form).getByRole('button', { name: 'Create' }));
    expect((await within(form).findAllByTestId('field-error')).map((node) => node.textContent)).toEqual([
      'Choose a B2C company',
      'Enter a first name',
      'Enter a last name',
      'Enter a valid e-mail address',
      'Use at least 8 characters',
    ]);

    await user.selectOptions(within(form).getByLabelText('B2C company'), 'Solo');
    await user.type(within(form).getByLabelText('First name'), 'Bo');
    await user.type(within(form).getByLabelText('Last name'), 'Ek');
    await user.clear(within(form).getByLabelText('E-mail'));
    await user.type(within(form).getByLabelText('E-mail'), 'bo@solo.test');
    await user.type(within(form).getByLabelText('Initial password'), '-long-enough');
    await user.click(within(form).getByRole('button', { name: 'Create' }));
    expect(await within(form).findByTestId('field-error')).toHaveTextContent('is already taken');
    expect(sent.find((request) => request.path === '/api/users/register')!.body).toEqual({
      companyId: SOLO,
      firstName: 'Bo',
      lastName: 'Ek',
      email: 'bo@solo.test',
      password: 'short-long-enough',
      role: 'USER',
    });
  });
});
