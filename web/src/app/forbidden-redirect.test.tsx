import { describe, expect, it } from '@jest/globals';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { RequireAuth } from '../features/auth/guards';
import { ForbiddenNotice } from '../features/layout/forbidden-notice';

function openAs(role: string, path: string) {
  localStorage.setItem(
    'user',
    JSON.stringify({ firstName: 'Uma', email: 'uma@acme.test', roles: { role: { code: role } } }),
  );
  render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route element={<RequireAuth />}>
          <Route path="/chat" element={<ForbiddenNotice />} />
          <Route path="/companies" element={<p>Companies page</p>} />
        </Route>
      </Routes>
    </MemoryRouter>,
  );
}

describe('a page the role may not open', () => {
  it('still lands on the start page, but says which page needed which role, until dismissed', async () => {
    openAs('USER', '/companies?page=2');
    const notice = screen.getByTestId('forbidden-notice');
    expect(notice).toHaveTextContent('status.forbidden');
    expect(screen.queryByText('Companies page')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'status.dismiss' }));
    expect(screen.queryByTestId('forbidden-notice')).toBeNull();
  });

  it('says nothing when the page was opened directly', () => {
    openAs('USER', '/chat');
    expect(screen.queryByTestId('forbidden-notice')).toBeNull();
  });
});
