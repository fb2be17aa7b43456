/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// The signed-out app in place of the router, the store and i18next: it names the page, tells why
// the last session ended, sends a signed-in person on, and after signing in keeps the person and
// the language of their account and hands the page to the signed-in app at the return URL.
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeGateway, json } from '../../test/fake-gateway';
import { renderSignedOut } from '../../test/signed-out';

const MIA = {
  _id: 'u1',
  firstName: 'Mia',
  lastName: 'Meri',
  email: 'mia@example.com',
  avatar: null,
  companyId: 'c1',
  roles: { role: { code: 'USER' } },
};

afterEach(() => localStorage.clear());

async function signIn(language: unknown) {
  const calls = fakeGateway((call) =>
    call.path === '/api/auth/login' ? json({ user: { ...MIA, language } }) : undefined,
  );
  localStorage.setItem('returnUrl', '/transcripts?page=2');
  const { openApp } = renderSignedOut('/signin');
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Email'), 'mia@example.com');
  await user.type(screen.getByLabelText('Password'), 'Mia knows this 1');
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
  await waitFor(() => expect(openApp).toHaveBeenCalledTimes(1));
  return calls;
}

describe('the signed-out app', () => {
  it('names the page and says why the last session ended', async () => {
    fakeGateway(() => undefined);
    renderSignedOut('/signin', { notice: 'Failed to refresh token' });
    expect(await screen.findByTestId('session-notice')).toHaveTextContent('Failed to refresh token');
    expect(document.title).toBe('Earshot | Sign in');
  });

  it('after signing in keeps the person, takes their account language, and opens the app at the return URL', async () => {
    const calls = await signIn('fr');
    expect(calls.find((call) => call.path === '/api/auth/login')?.body).toMatchObject({
      email: 'mia@example.com',
      password: 'Mia knows this 1',
      remember: false,
    });
    expect(window.location.pathname + window.location.search).toBe('/transcripts?page=2');
    expect(localStorage.getItem('returnUrl')).toBeNull();
    expect(JSON.parse(localStorage.getItem('user')!)).toMatchObject({ _id: 'u1' });
    expect(localStorage.getItem('preferredLanguage')).toBe('fr');
  });

  it('keeps the browser language when the account has none the console knows', async () => {
    await signIn('xx');
    expect(localStorage.getItem('preferredLanguage')).toBeNull();
  });

  it('sends a signed-in person from /signin to the app', async () => {
    fakeGateway(() => undefined);
    localStorage.setItem('user', JSON.stringify(MIA));
    const { openApp } = renderSignedOut('/signin');
    await waitFor(() => expect(openApp).toHaveBeenCalledTimes(1));
    expect(window.location.pathname).toBe('/chat');
  });
});
