/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// The account page with the app's store and RTK Query API; only the network is faked.
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { UserDetailDto } from '@earshot/contracts';
import { fakeGateway, json, renderPage, type Call } from '../../../test/fake-gateway';
import ProfilePage from './profile-page';

const ME: UserDetailDto = {
  _id: 'me', firstName: 'Mia', lastName: 'Meri', email: 'mia@example.com', avatar: null, companyId: 'c1', roles: { role: { code: 'USER' } }, role: 'USER',
  status: 'active', twoStepEnabled: false, language: null, lastSignInAt: null, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z',
};
const SESSIONS = [
  { _id: 's1', device: 'Firefox on Linux', address: '10.0.0.1', lastSeenAt: '2026-11-20T10:00:00.000Z', createdAt: '2026-11-20T09:00:00.000Z', current: true },
  { _id: 's2', device: 'Safari on iPhone', address: '10.0.0.2', lastSeenAt: '2026-11-19T10:00:00.000Z', createdAt: '2026-11-19T09:00:00.000Z', current: false },
];
const OTPAUTH = 'otpauth://totp/Earshot:mia%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Earshot';

function gateway(profile: UserDetailDto = ME, extra: (call: Call) => ReturnType<typeof json> = () => undefined) {
  let sessions = SESSIONS;
  let preferences = { transcriptReady: true, transcriptionFailed: true };
  return fakeGateway((call) => {
    const answer = extra(call);
    if (answer) return answer;
    if (call.path === '/api/users/profile' && call.method === 'GET') return json(profile);
    if (call.path === '/api/users/profile' && call.method === 'PUT') return json({ ...profile, ...(call.body as object) });
    if (call.path === '/api/users/sessions') return json(sessions);
    if (call.path === '/api/users/sessions/s2' && call.method === 'DELETE') {
      sessions = sessions.filter((s) => s._id !== 's2');
      return { status: 204, body: null };
    }
    if (call.path === '/api/email/preferences' && call.method === 'GET') return json(preferences);
    if (call.path === '/api/email/preferences' && call.method === 'PUT') {
      preferences = { ...preferences, ...(call.body as object) };
      return json(preferences);
    }
    if (call.path === '/api/users/two-step/setup') return json({ secret: 'JBSWY3DPEHPK3PXP', otpauthUrl: OTPAUTH });
    if (call.path === '/api/users/two-step/enable') return json({ message: 'on', recoveryCodes: ['abcde-fghjk', 'mnpqr-stuvw'] });
    return undefined;
  });
}

afterEach(() => localStorage.clear());

const render = () => renderPage(<ProfilePage />, { path: '/profile', url: '/profile', role: 'USER' });

describe('account page', () => {
  it('lists the sessions, marks this one, and signs another one out', async () => {
    const calls = gateway();
    render();
    const rows = await screen.findAllByTestId('session-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('This device')).toBeInTheDocument();
    expect(within(rows[0]!).queryByRole('button', { name: 'Sign out' })).toBeNull();
    await userEvent.setup().click(within(rows[1]!).getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(screen.getAllByTestId('session-row')).toHaveLength(1));
    expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/users/sessions/s2')).toBe(true);
    expect(screen.getByText('No other sessions.')).toBeInTheDocument();
  });

  it('puts a wrong current password on its field', async () => {
    gateway(ME, (call) => (call.path === '/api/users/password'
      ? json({ message: 'Your current password is not correct', details: [{ field: 'body.currentPassword', message: 'Your current password is not correct' }] }, 400)
      : undefined));
    render();
    const user = userEvent.setup();
    const current = await screen.findByLabelText('Current password');
    await user.type(current, 'wrong');
    await user.type(screen.getByLabelText('New password'), 'a long new passphrase');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(current).toHaveAttribute('aria-invalid', 'true'));
    expect(document.getElementById(current.getAttribute('aria-describedby')!)).toHaveTextContent('Your current password is not correct');
  });

  it('sets two-step sign-in up with a QR code drawn locally, then shows the recovery codes once', async () => {
    const calls = gateway();
    render();
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('two-step-start'));
    expect(await screen.findByTestId('two-step-secret')).toHaveTextContent('JBSWY3DPEHPK3PXP');
    const qr = await screen.findByRole('img', { name: 'QR code for your authenticator app' });
    expect(qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    await user.type(screen.getByLabelText(/Code from the app/), '123456');
    await user.click(screen.getByTestId('two-step-confirm'));
    expect((await screen.findAllByTestId('recovery-code')).map((li) => li.textContent)).toEqual(['abcde-fghjk', 'mnpqr-stuvw']);
    expect(calls.find((c) => c.path === '/api/users/two-step/enable')?.body).toEqual({ code: '123456' });
    await user.click(screen.getByTestId('recovery-done'));
    expect(screen.queryByTestId('recovery-codes')).toBeNull();
  });

  it('saves each notification e-mail as it is ticked, then names and language (the console switches to it)', async () => {
    const calls = gateway();
    render();
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText('E-mail me when a transcript is ready'));
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT' && c.path === '/api/email/preferences')?.body).toEqual({ transcriptReady: false }));
    const first = screen.getByLabelText('First name');
    await user.clear(first);
    await user.type(first, 'Maria');
    await user.selectOptions(screen.getByLabelText('Language'), 'et');
    await user.click(screen.getByRole('button', { name: 'Save profile' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT' && c.path === '/api/users/profile')?.body).toEqual({ firstName: 'Maria', lastName: 'Meri', language: 'et' }));
    expect(await screen.findByRole('heading', { name: 'Profiil' })).toBeInTheDocument();
  });
});
