import { afterEach, describe, expect, it } from '@jest/globals';
import { render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { PublicOnly, RequireAuth } from './guards';

function Page({ name }: { name: string }) {
  const location = useLocation();
  return (
    <p data-testid="page" data-path={location.pathname}>
      {name}
    </p>
  );
}

function renderAt(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route element={<PublicOnly />}>
          <Route path="/signin" element={<Page name="sign-in page" />} />
          <Route path="/signup" element={<Page name="sign-up page" />} />
        </Route>
        <Route element={<RequireAuth />}>
          <Route path="/chat" element={<Page name="chat page" />} />
          <Route path="/companies" element={<Page name="companies page" />} />
          <Route path="/transcripts/:id" element={<Page name="transcript page" />} />
        </Route>
      </Routes>
    </MemoryRouter>,
  );
  return { path: () => screen.getByTestId('page').getAttribute('data-path') };
}

const signInAs = (code: string) =>
  localStorage.setItem('user', JSON.stringify({ email: 'x@acme.test', roles: { role: { code } } }));

afterEach(() => localStorage.clear());

describe('route guards', () => {
  it('sends a signed-out visitor to /signin and keeps the page as the return URL', async () => {
    const router = renderAt('/transcripts/42?tab=words');
    expect(await screen.findByText('sign-in page')).toBeInTheDocument();
    expect(router.path()).toBe('/signin');
    expect(localStorage.getItem('returnUrl')).toBe('/transcripts/42?tab=words');
  });

  it('USER opening /companies lands on /chat', async () => {
    signInAs('USER');
    const router = renderAt('/companies');
    expect(await screen.findByText('chat page')).toBeInTheDocument();
    expect(router.path()).toBe('/chat');
  });

  it('HOST_ADMIN opens /companies', async () => {
    signInAs('HOST_ADMIN');
    renderAt('/companies');
    expect(await screen.findByText('companies page')).toBeInTheDocument();
  });

  it('a signed-in user opening /signin goes to the return URL once, and it is cleared', async () => {
    signInAs('USER');
    localStorage.setItem('returnUrl', '/transcripts/7');
    const router = renderAt('/signin');
    expect(await screen.findByText('transcript page')).toBeInTheDocument();
    expect(router.path()).toBe('/transcripts/7');
    expect(localStorage.getItem('returnUrl')).toBeNull();
  });

  it('a signed-in user opening /signup without a valid return URL goes to /chat', async () => {
    signInAs('CALLER');
    localStorage.setItem('returnUrl', '/companies');
    const router = renderAt('/signup');
    expect(await screen.findByText('chat page')).toBeInTheDocument();
    expect(router.path()).toBe('/chat');
  });

  it('a signed-out visitor may stay on /signin', async () => {
    renderAt('/signin');
    expect(await screen.findByText('sign-in page')).toBeInTheDocument();
  });
});
