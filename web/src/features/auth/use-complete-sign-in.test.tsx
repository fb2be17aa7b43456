import { describe, expect, it } from '@jest/globals';
import { fireEvent, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { makeStore } from '../../lib/store';
import type { StoredUser } from '../../lib/stored-user';
import { useCompleteSignIn } from './use-complete-sign-in';

const USER: StoredUser = { _id: 'u1', firstName: 'Mia', lastName: 'Meri', email: 'mia@example.com', avatar: null, companyId: 'c1', roles: { role: { code: 'USER' } } };

function SignIn({ user }: { user: StoredUser }) {
  const complete = useCompleteSignIn();
  return <button type="button" onClick={() => complete(user)}>sign in</button>;
}

async function signInAs(user: StoredUser) {
  const i18n = i18next.createInstance();
  await i18n.init({ lng: 'en', initAsync: false, resources: { en: { translation: {} }, fr: { translation: {} } }, supportedLngs: ['en', 'fr', 'et', 'lv'] });
  render(
    <Provider store={makeStore()}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={['/signin']}>
          <Routes>
            <Route path="/signin" element={<SignIn user={user} />} />
            <Route path="*" element={<p>signed in</p>} />
          </Routes>
        </MemoryRouter>
      </I18nextProvider>
    </Provider>,
  );
  fireEvent.click(screen.getByRole('button', { name: 'sign in' }));
  return i18n;
}

describe('completing a sign-in', () => {
  it("switches the console to the language saved in the person's account", async () => {
    const i18n = await signInAs({ ...USER, language: 'fr' });
    expect(await screen.findByText('signed in')).toBeInTheDocument();
    expect(i18n.language).toBe('fr');
  });

  it('keeps the browser\'s language when the account has none', async () => {
    const none = await signInAs({ ...USER, language: null });
    expect(await screen.findByText('signed in')).toBeInTheDocument();
    expect(none.language).toBe('en');
  });

  it('ignores a language the console does not have', async () => {
    const unknown = await signInAs({ ...USER, language: 'xx' } as unknown as StoredUser);
    expect(await screen.findByText('signed in')).toBeInTheDocument();
    expect(unknown.language).toBe('en');
  });
});
