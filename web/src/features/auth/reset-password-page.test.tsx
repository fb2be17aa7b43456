/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// The password page from a link: a reset sends the person to /success; an invitation says it sets
// their first password and, with the session the server answers, signs them in.
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeGateway, json } from '../../../test/fake-gateway';
import { renderSignedOut } from '../../../test/signed-out';

const IVY = {
  _id: 'u9',
  firstName: 'Ivy',
  lastName: 'Invited',
  email: 'ivy@example.com',
  avatar: null,
  companyId: 'c1',
  roles: { role: { code: 'USER' } },
};

afterEach(() => localStorage.clear());

async function choose(password: string) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('New password', { exact: true }), password);
  await user.type(screen.getByLabelText('Confirm new password'), password);
  return user;
}

describe('reset password page', () => {
  it('with invite=1 it welcomes the person, sets their first password and signs them in', async () => {
    const calls = fakeGateway((call) =>
      call.path === '/api/auth/password/reset'
        ? json({ message: 'Your password is set: welcome', user: IVY })
        : undefined,
    );
    const { openApp } = renderSignedOut('/reset-password?token=tok-1&invite=1');
    expect(await screen.findByRole('heading', { name: /^Welcome to / })).toBeInTheDocument();
    expect(screen.getByText(/Set your password to finish setting up your account/)).toBeInTheDocument();
    const user = await choose('Ivy chose this one 1');
    await user.click(screen.getByRole('button', { name: 'Set your password' }));
    await waitFor(() => expect(openApp).toHaveBeenCalledTimes(1));
    expect(window.location.pathname).toBe('/');
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      token: 'tok-1',
      password: 'Ivy chose this one 1',
    });
    expect(JSON.parse(localStorage.getItem('user')!)).toMatchObject({ _id: 'u9', email: 'ivy@example.com' });
  });

  it('an expired invitation shows the server’s reason and stays on the form', async () => {
    fakeGateway((call) =>
      call.path === '/api/auth/password/reset'
        ? json(
            {
              message: 'This reset link is invalid or has expired',
              code: 'BAD_REQUEST',
              details: [{ field: 'body.token', message: 'This reset link is invalid or has expired' }],
            },
            400,
          )
        : undefined,
    );
    const { openApp } = renderSignedOut('/reset-password?token=old&invite=1');
    await screen.findByRole('heading', { name: /^Welcome to / });
    const user = await choose('Ivy chose this one 1');
    await user.click(screen.getByRole('button', { name: 'Set your password' }));
    expect(await screen.findByText('This reset link is invalid or has expired')).toBeInTheDocument();
    expect(openApp).not.toHaveBeenCalled();
  });

  it('a plain reset link keeps its wording and leaves for /success without signing in', async () => {
    fakeGateway((call) =>
      call.path === '/api/auth/password/reset'
        ? json({ message: 'Your password was changed: sign in with the new one' })
        : undefined,
    );
    localStorage.setItem(
      'user',
      JSON.stringify({
        _id: 'me',
        firstName: 'Me',
        lastName: 'Myself',
        email: 'me@example.com',
        avatar: null,
        companyId: 'c1',
        roles: { role: { code: 'USER' } },
      }),
    );
    const { openApp } = renderSignedOut('/reset-password?token=tok-2');
    expect(screen.queryByRole('heading', { name: /^Welcome to / })).toBeNull();
    const user = await choose('A brand new password 1');
    await user.click(screen.getByRole('button', { name: 'Set password' }));
    await waitFor(() => expect(openApp).toHaveBeenCalledTimes(1));
    expect(window.location.pathname).toBe('/success');
    // No session came with it: the stored user is still the one from before.
    expect(JSON.parse(localStorage.getItem('user')!)).toMatchObject({ _id: 'me' });
  });
});
