/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// The account page with the app's store and RTK Query API; only the network is faked.
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { UserDetailDto } from '@earshot/contracts';
import { fakeGateway, json, renderPage, type Call } from '../../../test/fake-gateway';
import { AVATAR_MAX_BYTES } from '@earshot/contracts/constants';
import ProfilePage from './profile-page';

const ME: UserDetailDto = {
  _id: 'me',
  firstName: 'Mia',
  lastName: 'Meri',
  email: 'mia@example.com',
  avatar: null,
  companyId: 'c1',
  roles: { role: { code: 'USER' } },
  role: 'USER',
  status: 'active',
  twoStepEnabled: false,
  language: null,
  lastSignInAt: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};
const SESSIONS = [
  {
    _id: 's1',
    device: 'Firefox on Linux',
    address: '10.0.0.1',
    lastSeenAt: '2026-11-20T10:00:00.000Z',
    createdAt: '2026-11-20T09:00:00.000Z',
    current: true,
  },
  {
    _id: 's2',
    device: 'Safari on iPhone',
    address: '10.0.0.2',
    lastSeenAt: '2026-11-19T10:00:00.000Z',
    createdAt: '2026-11-19T09:00:00.000Z',
    current: false,
  },
];
const OTPAUTH = 'otpauth://totp/Earshot:mia%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Earshot';

function gateway(profile: UserDetailDto = ME, extra: (call: Call) => ReturnType<typeof json> = () => undefined) {
  let sessions = SESSIONS;
  let preferences = { transcriptReady: true, transcriptionFailed: true };
  return fakeGateway((call) => {
    const answer = extra(call);
    if (answer) return answer;
    if (call.path === '/api/users/profile' && call.method === 'GET') return json(profile);
    if (call.path === '/api/users/profile' && call.method === 'PUT')
      return json({ ...profile, ...(call.body as object) });
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
    if (call.path === '/api/users/two-step/enable')
      return json({ message: 'on', recoveryCodes: ['abcde-fghjk', 'mnpqr-stuvw'] });
    return undefined;
  });
}

afterEach(() => {
  localStorage.clear();
  jest.restoreAllMocks();
});

const AVATAR_PATH = '/api/users/profile/avatar';
const OLD_AVATAR = '/api/users/avatars/me?v=1';
const NEW_AVATAR = '/api/users/avatars/me?v=2';
const WITH_PICTURE: UserDetailDto = { ...ME, avatar: OLD_AVATAR };
/** The UserDto the avatar calls answer with. */
const userDto = (avatar: string | null) => ({
  _id: ME._id,
  firstName: ME.firstName,
  lastName: ME.lastName,
  email: ME.email,
  avatar,
  companyId: ME.companyId,
  roles: ME.roles,
});
const png = (bytes = 68) => new File([new Uint8Array(bytes)], 'me.png', { type: 'image/png' });
const storedAvatar = () => (JSON.parse(localStorage.getItem('user') ?? '{}') as { avatar?: unknown }).avatar;

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
    gateway(ME, (call) =>
      call.path === '/api/users/password'
        ? json(
            {
              message: 'Your current password is not correct',
              details: [{ field: 'body.currentPassword', message: 'Your current password is not correct' }],
            },
            400,
          )
        : undefined,
    );
    render();
    const user = userEvent.setup();
    const current = await screen.findByLabelText('Current password');
    await user.type(current, 'wrong');
    await user.type(screen.getByLabelText('New password'), 'a long new passphrase');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(current).toHaveAttribute('aria-invalid', 'true'));
    expect(document.getElementById(current.getAttribute('aria-describedby')!)).toHaveTextContent(
      'Your current password is not correct',
    );
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
    expect((await screen.findAllByTestId('recovery-code')).map((li) => li.textContent)).toEqual([
      'abcde-fghjk',
      'mnpqr-stuvw',
    ]);
    expect(calls.find((c) => c.path === '/api/users/two-step/enable')?.body).toEqual({ code: '123456' });
    await user.click(screen.getByTestId('recovery-done'));
    expect(screen.queryByTestId('recovery-codes')).toBeNull();
  });

  it('saves each notification e-mail as it is ticked, then names and language (the console switches to it)', async () => {
    const calls = gateway();
    render();
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText('E-mail me when a transcript is ready'));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PUT' && c.path === '/api/email/preferences')?.body).toEqual({
        transcriptReady: false,
      }),
    );
    const first = screen.getByLabelText('First name');
    await user.clear(first);
    await user.type(first, 'Maria');
    await user.selectOptions(screen.getByLabelText('Language'), 'et');
    await user.click(screen.getByRole('button', { name: 'Save profile' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PUT' && c.path === '/api/users/profile')?.body).toEqual({
        firstName: 'Maria',
        lastName: 'Meri',
        language: 'et',
      }),
    );
    expect(await screen.findByRole('heading', { name: 'Profiil' })).toBeInTheDocument();
  });

  it('uploads a chosen picture as multipart at once, then shows it here and in the stored user the header reads', async () => {
    const calls = gateway(ME, (call) =>
      call.method === 'POST' && call.path === AVATAR_PATH ? json(userDto(NEW_AVATAR)) : undefined,
    );
    const append = jest.spyOn(FormData.prototype, 'append');
    render();
    const user = userEvent.setup();
    expect(await screen.findByTestId('avatar-initials')).toHaveTextContent('MM');
    const input = screen.getByTestId<HTMLInputElement>('avatar-input');
    expect(input).toHaveAttribute('accept', 'image/png,image/jpeg,image/webp,image/x-icon');
    const openDialog = jest.spyOn(input, 'click');
    await user.click(screen.getByRole('button', { name: 'Upload picture' }));
    expect(openDialog).toHaveBeenCalled();
    // The answer waits until the busy state has been seen.
    let answer = () => {};
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const gatewayFetch = globalThis.fetch;
    globalThis.fetch = (async (...args: Parameters<typeof fetch>) => {
      if (new URL((args[0] as Request).url).pathname === AVATAR_PATH) await answered;
      return gatewayFetch(...args);
    }) as typeof fetch;
    const file = png();
    await user.upload(input, file);
    expect(await screen.findByRole('button', { name: 'Uploading…' })).toBeDisabled();
    answer();
    expect(await screen.findByRole('img', { name: 'Your current picture' })).toHaveAttribute('src', NEW_AVATAR);
    expect(screen.getByRole('button', { name: 'Upload picture' })).toBeEnabled();
    const sent = calls.filter((c) => c.path === AVATAR_PATH);
    expect(sent.map((c) => c.method)).toEqual(['POST']);
    expect(append).toHaveBeenCalledWith('file', file);
    expect(screen.queryByTestId('avatar-initials')).toBeNull();
    expect(screen.getByRole('status')).toHaveTextContent('Your picture was updated.');
    expect(storedAvatar()).toBe(NEW_AVATAR);
  });

  it('shows the server’s refusal of a file under the picture and keeps the current one', async () => {
    const message = 'Invalid file: the image must be a PNG, JPEG, WebP or ICO file';
    const calls = gateway(WITH_PICTURE, (call) =>
      call.method === 'POST' && call.path === AVATAR_PATH
        ? json({ message, code: 'UNSUPPORTED', errors: [{ field: 'file', message }] }, 415)
        : undefined,
    );
    render();
    const picture = await screen.findByRole('img', { name: 'Your current picture' });
    await userEvent.setup().upload(screen.getByTestId('avatar-input'), png());
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(calls.filter((c) => c.path === AVATAR_PATH).map((c) => c.method)).toEqual(['POST']);
    expect(picture).toHaveAttribute('src', OLD_AVATAR);
    expect(screen.getByRole('img', { name: 'Your current picture' })).toBe(picture);
    expect(storedAvatar()).toBe(OLD_AVATAR);
  });

  it('sends nothing for a file over 1 MB and says why', async () => {
    const calls = gateway(ME, (call) => (call.path === AVATAR_PATH ? json(userDto(NEW_AVATAR)) : undefined));
    render();
    const input = await screen.findByTestId('avatar-input');
    await userEvent.setup().upload(input, png(AVATAR_MAX_BYTES + 1));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'That picture is larger than 1 MB: choose a smaller one.',
    );
    expect(calls.filter((c) => c.path === AVATAR_PATH)).toEqual([]);
    expect(screen.getByTestId('avatar-initials')).toHaveTextContent('MM');
  });

  it('removes the picture with DELETE and shows the initials instead', async () => {
    const calls = gateway(WITH_PICTURE, (call) =>
      call.method === 'DELETE' && call.path === AVATAR_PATH ? json(userDto(null)) : undefined,
    );
    render();
    await screen.findByRole('img', { name: 'Your current picture' });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Remove picture' }));
    expect(await screen.findByTestId('avatar-initials')).toHaveTextContent('MM');
    expect(calls.filter((c) => c.path === AVATAR_PATH).map((c) => c.method)).toEqual(['DELETE']);
    expect(screen.queryByRole('img', { name: 'Your current picture' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remove picture' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Upload picture' })).toHaveFocus();
    expect(storedAvatar()).toBeNull();
  });

  it('offers Remove only when there is a picture', async () => {
    gateway();
    render();
    await screen.findByTestId('avatar-initials');
    expect(screen.getByRole('button', { name: 'Upload picture' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Remove picture' })).toBeNull();
  });
});
