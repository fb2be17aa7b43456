/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// The audit log page with the app's store and RTK Query API; only the network is faked: `fetch`
// answers like the gateway.
import { describe, expect, it, jest } from '@jest/globals';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { en } from '../../i18n/locales/en';
import { makeStore } from '../../lib/store';
import AuditLogsPage from './audit-logs-page';
import type { AuditEntry, AuditPage } from './model';

const i18n = i18next.createInstance();
void i18n.init({ lng: 'en', resources: { en: { translation: en } }, interpolation: { escapeValue: false } });

const COMPANY = '00000000-0000-4000-8000-0000000000c1';
const host = { type: 'user', id: 'h1', email: 'root@earshot.test', role: 'HOST_ADMIN' } as const;
function entry(n: number, extra: Partial<AuditEntry> = {}): AuditEntry {
  return {
    _id: `e${n}`,
    occurredAt: `2026-01-0${n}T10:00:00.000Z`,
    type: 'company.updated',
    version: 1,
    companyId: COMPANY,
    actor: host,
    target: { type: 'company', id: COMPANY },
    before: { name: 'Old', code: 'AC' },
    after: { name: 'New', code: 'AC' },
    data: {},
    ...extra,
  };
}
const page = (items: AuditEntry[], nextCursor: string | null): AuditPage => ({
  items,
  page: null,
  pageSize: 50,
  total: null,
  totalPages: null,
  nextCursor,
});

function fakeGateway(answer: (query: URLSearchParams) => { status: number; body: unknown }) {
  const audits: URLSearchParams[] = [];
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const url = new URL((input as Request).url);
    const json = (status: number, body: unknown) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    if (url.pathname === '/api/companies/dropdown') return json(200, [{ _id: COMPANY, name: 'Acme' }]);
    if (url.pathname === '/api/audit') {
      audits.push(url.searchParams);
      const { status, body } = answer(url.searchParams);
      return json(status, body);
    }
    return json(404, { message: 'Not found' });
  }) as unknown as typeof fetch;
  return audits;
}

function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.search}</output>;
}

function renderAt(url: string) {
  render(
    <Provider store={makeStore()}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={[url]}>
          <Routes>
            <Route
              path="/audit-logs"
              element={
                <>
                  <AuditLogsPage />
                  <Where />
                </>
              }
            />
          </Routes>
        </MemoryRouter>
      </I18nextProvider>
    </Provider>,
  );
}

describe('audit log page', () => {
  it('reads its filters from the URL, loads more with the cursor, and opens the diff', async () => {
    const audits = fakeGateway((query) =>
      query.get('cursor') === 'next1'
        ? { status: 200, body: page([entry(1)], null) }
        : { status: 200, body: page([entry(3), entry(2)], 'next1') },
    );
    const user = userEvent.setup();
    renderAt('/audit-logs?type=company.&actor=root@earshot.test');
    expect(await screen.findAllByTestId('data-table-row')).toHaveLength(2);
    expect(screen.getByLabelText('Event type')).toHaveValue('company.');
    // The first page never counts; the actor box's e-mail goes to actorEmail.
    expect(Object.fromEntries(audits[0]!)).toEqual({
      type: 'company.',
      actorEmail: 'root@earshot.test',
      pageSize: '50',
      withTotal: 'false',
    });
    expect(await screen.findAllByText('Acme', { selector: 'td' })).toHaveLength(2);

    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(screen.getAllByTestId('data-table-row')).toHaveLength(3));
    expect(Object.fromEntries(audits[1]!)).toEqual({
      type: 'company.',
      actorEmail: 'root@earshot.test',
      pageSize: '50',
      cursor: 'next1',
    });
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(screen.getByTestId('audit-count')).toHaveTextContent('All entries shown: 3');

    await user.click(screen.getAllByRole('button', { name: 'View entry company.updated' })[0]!);
    const drawer = screen.getByTestId('audit-drawer');
    expect(within(drawer).getByRole('heading', { name: 'Audit entry: company.updated' })).toBeInTheDocument();
    const changed = within(drawer)
      .getAllByRole('row')
      .filter((row) => row.getAttribute('data-change') === 'changed');
    expect(changed.map((row) => row.textContent)).toEqual(['namechanged"Old""New"']);
    await user.click(within(drawer).getByRole('button', { name: 'Close' }));
    expect(screen.getByTestId('audit-drawer')).not.toHaveAttribute('open');
  });

  it('puts applied filters in the URL', async () => {
    const audits = fakeGateway(() => ({ status: 200, body: page([], null) }));
    const user = userEvent.setup();
    renderAt('/audit-logs');
    await screen.findByText('No audit entries match these filters');
    await screen.findByRole('option', { name: 'Acme' });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Company' }), 'Acme');
    await user.type(screen.getByLabelText('Target id'), 'abc');
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));
    expect(screen.getByTestId('where')).toHaveTextContent(`?companyId=${COMPANY}&targetId=abc`);
    await screen.findByText('No audit entries match these filters');
    expect(audits.at(-1)!.get('companyId')).toBe(COMPANY);
    expect(audits.at(-1)!.get('targetId')).toBe('abc');
  });

  it('names the entries of a person’s export and erasure, the raw type beneath; other types stay raw', async () => {
    const types = [
      'privacy.export_requested',
      'privacy.part_ready',
      'privacy.erase_requested',
      'privacy.part_erased',
      'privacy.erased',
      'company.updated',
    ];
    fakeGateway(() => ({
      status: 200,
      body: page(
        types.map((type, n) => entry(n + 1, { type })),
        null,
      ),
    }));
    renderAt('/audit-logs');
    expect(await screen.findAllByTestId('data-table-row')).toHaveLength(6);
    expect(
      screen
        .getAllByTestId('audit-type-label')
        .map((label) => [label.textContent, label.nextElementSibling?.textContent]),
    ).toEqual([
      ['Personal data export requested', 'privacy.export_requested'],
      ['Export part ready (one service)', 'privacy.part_ready'],
      ['Personal data erasure requested', 'privacy.erase_requested'],
      ['Erasure part done (one service)', 'privacy.part_erased'],
      ['Personal data erased', 'privacy.erased'],
    ]);
    await act(() => i18n.changeLanguage('lv'));
    await waitFor(() =>
      expect(screen.getAllByTestId('audit-type-label').at(-1)).toHaveTextContent('Personas dati dzēsti'),
    );
    await act(() => i18n.changeLanguage('en'));
  });

  it('shows the server’s error with a way to try again', async () => {
    let fail = true;
    fakeGateway(() =>
      fail
        ? { status: 400, body: { message: 'Invalid query.type: must be an event type', code: 'BAD_REQUEST' } }
        : { status: 200, body: page([entry(1)], null) },
    );
    const user = userEvent.setup();
    renderAt('/audit-logs?type=Nope');
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid query.type: must be an event type');
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findAllByTestId('data-table-row')).toHaveLength(1);
  });
});
