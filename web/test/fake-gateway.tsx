// For page tests that drive the real store and RTK Query API: `fetch` answers like the gateway
// from a table of routes, and the page renders as a signed-in user, in English unless told otherwise.
import { jest } from '@jest/globals';
import { render } from '@testing-library/react';
import i18next from 'i18next';
import type { ReactElement } from 'react';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import type { Role } from '@earshot/contracts/constants';
import { SharedComponentsContext } from '../src/app/app';
import { RequireAuth } from '../src/features/auth/guards';
import { en } from '../src/i18n/locales/en';
import { et } from '../src/i18n/locales/et';
import { fr } from '../src/i18n/locales/fr';
import { lv } from '../src/i18n/locales/lv';
import { makeStore } from '../src/lib/store';

export interface Call {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

/** `headers`: besides content-type (an answer that says something in a header, e.g. x-redacted). */
export type Answer = { status: number; body?: unknown; headers?: Record<string, string> } | undefined;

/** Answers each request with the first route that returns something; unknown routes are 404. */
export function fakeGateway(route: (call: Call) => Answer): Call[] {
  const calls: Call[] = [];
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    // RTK Query passes a Request; the chat stream calls fetch(path, init) itself.
    const request =
      input instanceof Request ? input : new Request(new URL(String(input), window.location.origin), init);
    const url = new URL(request.url);
    // Only JSON bodies are read: a multipart upload stays a FormData the fake does not parse.
    const json = (request.headers.get('content-type') ?? '').includes('json');
    const text = json ? await request.clone().text() : '';
    const call = {
      method: request.method,
      path: url.pathname,
      query: url.searchParams,
      body: text ? (JSON.parse(text) as unknown) : undefined,
    };
    calls.push(call);
    const answer = route(call) ?? { status: 404, body: { message: 'Not found' } };
    return new Response(answer.body === null || answer.body === undefined ? null : JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'content-type': 'application/json', ...answer.headers },
    });
  }) as unknown as typeof fetch;
  return calls;
}

export const json = (body: unknown, status = 200): Answer => ({ status, body });

/** Any other path: says where the page sent the person (`data-path`). */
function Elsewhere(): ReactElement {
  return (
    <p data-testid="elsewhere" data-path={useLocation().pathname}>
      elsewhere
    </p>
  );
}

const CATALOGUES = { en, fr, et, lv };

/**
 * Renders `page` at `url` (matched by `path`) for a signed-in user of `role` in `companyId`, in
 * `language` (en, fr, et or lv); `guarded` puts the app's route guard (RequireAuth, the role lists
 * of lib/roles.ts) in front of it.
 */
export function renderPage(
  page: ReactElement,
  {
    path,
    url,
    role,
    companyId = 'c0000000-0000-4000-8000-000000000001',
    guarded = false,
    language = 'en',
  }: {
    path: string;
    url: string;
    role: Role;
    companyId?: string | null;
    guarded?: boolean;
    language?: keyof typeof CATALOGUES;
  },
) {
  localStorage.setItem(
    'user',
    JSON.stringify({
      _id: 'me',
      firstName: 'Me',
      lastName: 'Myself',
      email: 'me@example.com',
      avatar: null,
      companyId,
      roles: { role: { code: role } },
    }),
  );
  const i18n = i18next.createInstance();
  void i18n.init({
    lng: language,
    initAsync: false,
    resources: { [language]: { translation: CATALOGUES[language] } },
    interpolation: { escapeValue: false },
  });
  return render(
    <Provider store={makeStore()}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={[url]}>
          <SharedComponentsContext>
            <Routes>
              {guarded ? (
                <Route element={<RequireAuth />}>
                  <Route path={path} element={page} />
                </Route>
              ) : (
                <Route path={path} element={page} />
              )}
              <Route path="*" element={<Elsewhere />} />
            </Routes>
          </SharedComponentsContext>
        </MemoryRouter>
      </I18nextProvider>
    </Provider>,
  );
}
