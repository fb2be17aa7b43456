/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// Single sign-on on the sign-in page: the typed e-mail's domain is asked about after a pause, a
// company with single sign-on is offered ("Continue with <company>"), a required one hides the
// password, and a refused single sign-on comes back as a sentence.
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeGateway, json } from '../../../test/fake-gateway';
import { renderSignedOut } from '../../../test/signed-out';
import { ssoStartUrl } from './sso-offer';

afterEach(() => localStorage.clear());

const ACME = { sso: true, companyName: 'Acme', required: false, startUrl: '/api/auth/sso/start?company=acme' };

function gateway(answer: object) {
  return fakeGateway((call) => {
    if (call.path !== '/api/auth/sso/discover') return undefined;
    return json(call.query.get('email')?.endsWith('@acme.test') ? answer : { sso: false });
  });
}

describe('single sign-on on the sign-in page', () => {
  it('offers the company of the typed e-mail, and nothing for another domain', async () => {
    const calls = gateway(ACME);
    renderSignedOut('/signin');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'kim@acme.test');
    expect(await screen.findByRole('button', { name: 'Continue with Acme' })).toBeInTheDocument();
    expect(screen.getByLabelText('Password')).toBeInTheDocument();
    // Asked once the typing paused, not at every key.
    expect(calls.filter((c) => c.path === '/api/auth/sso/discover').map((c) => c.query.get('email'))).toEqual([
      'kim@acme.test',
    ]);

    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'kim@other.test');
    await waitFor(() => expect(screen.queryByTestId('sso-offer')).toBeNull());
  });

  it('hides the password when the company requires its own sign-in', async () => {
    gateway({ ...ACME, required: true });
    renderSignedOut('/signin');
    await userEvent.setup().type(screen.getByLabelText('Email'), 'kim@acme.test');
    expect(
      await screen.findByText('Your company signs in with its own identity provider: continue with Acme.'),
    ).toBeInTheDocument();
    expect(screen.queryByLabelText('Password')).toBeNull();
  });

  it('says why a single sign-on was refused', async () => {
    fakeGateway(() => undefined);
    renderSignedOut('/signin?error=sso_email_unverified');
    expect(await screen.findByTestId('signin-error')).toHaveTextContent(/did not confirm the address is yours/);
  });

  it('keeps the start address on this origin and passes the keep-me-signed-in choice', () => {
    const offer = { companyName: 'Acme', required: false, startUrl: ACME.startUrl };
    expect(ssoStartUrl(offer, true, 'https://console.test')).toBe(
      'https://console.test/api/auth/sso/start?company=acme&remember=true',
    );
    expect(ssoStartUrl({ ...offer, startUrl: 'https://evil.test/x' }, false, 'https://console.test')).toBeNull();
  });
});
