/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// The prompts page with the app's store and RTK Query API; only the network is faked: `fetch`
// answers like the gateway. The expected-format editor must show the spec's messages (part 5).
import { describe, expect, it, jest } from '@jest/globals';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { en } from '../../i18n/locales/en';
import { makeStore } from '../../lib/store';
import PromptsPage from './prompts-page';
import type { Prompt } from './model';

const i18n = i18next.createInstance();
void i18n.init({ lng: 'en', resources: { en: { translation: en } }, interpolation: { escapeValue: false } });

const existing: Prompt = {
  _id: 'p1',
  name: 'Call quality',
  description: '',
  prompt: 'Rate {{transcript}}',
  type: 'custom',
  expectedFormat: [],
  version: 3,
  scope: null,
  isGlobal: true,
  companies: [],
  users: [],
  createdAt: '2026-01-02T10:00:00.000Z',
  updatedAt: '2026-01-02T10:00:00.000Z',
};

type Answer = { status: number; body: unknown };
function fakeGateway(onWrite: (method: string, path: string, body: unknown) => Answer) {
  const writes: Array<{ method: string; path: string; body: unknown }> = [];
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const request = input as Request;
    const url = new URL(request.url);
    const json = ({ status, body }: Answer) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    if (request.method === 'GET' && url.pathname === '/api/prompts')
      return json({ status: 200, body: { items: [existing], page: 1, pageSize: 10, total: 1, totalPages: 1 } });
    if (request.method !== 'GET') {
      const text = await request.text();
      const body = text ? JSON.parse(text) : null;
      writes.push({ method: request.method, path: url.pathname, body });
      return json(onWrite(request.method, url.pathname, body));
    }
    return json({ status: 404, body: { message: 'Not found' } });
  }) as unknown as typeof fetch;
  return writes;
}

function renderPage() {
  render(
    <Provider store={makeStore()}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={['/prompts']}>
          <PromptsPage />
        </MemoryRouter>
      </I18nextProvider>
    </Provider>,
  );
}

const errorsIn = (element: HTMLElement) =>
  within(element)
    .queryAllByTestId('field-error')
    .map((e) => e.textContent);

describe('prompts page', () => {
  it('shows each expected-format message of the spec in the form, then the server’s on its field', async () => {
    const range = 'Range is required for integer type';
    let answer: Answer = {
      status: 400,
      body: {
        message: range,
        code: 'VALIDATION_FAILED',
        details: [{ field: 'body.expectedFormat.0.range', message: range }],
      },
    };
    const writes = fakeGateway(() => answer);
    const user = userEvent.setup();
    renderPage();
    expect(await screen.findByText('Call quality')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Prompts' })).toBeInTheDocument();
    expect(screen.getByText('NA', { selector: 'td' })).toBeInTheDocument();

    await user.click(screen.getByTestId('prompt-new'));
    const form = screen.getByTestId('prompt-form');
    await user.type(within(form).getByLabelText('Name'), 'Sales review');
    await user.click(within(form).getByRole('button', { name: '{{transcript}}' }));
    await user.click(screen.getByTestId('add-format-field'));
    await user.click(screen.getByTestId('add-format-field'));
    await user.click(screen.getByTestId('form-save'));
    const [first, second] = screen.getAllByTestId('format-field') as [HTMLElement, HTMLElement];
    await waitFor(() => expect(errorsIn(first)).toEqual(['Field name is required', 'Description is required']));

    await user.selectOptions(within(first).getByLabelText('Field type'), 'integer');
    await user.selectOptions(within(second).getByLabelText('Field type'), 'custom');
    await user.click(screen.getByTestId('form-save'));
    await waitFor(() => expect(errorsIn(first)).toContain('Range is required for integer type'));
    expect(errorsIn(second)).toContain('Options are required for Custom type');

    await user.type(within(second).getByLabelText('Options'), 'positive{Enter}');
    await user.click(screen.getByTestId('form-save'));
    await waitFor(() => expect(errorsIn(second)).toContain('At least 2 options are required for Custom type'));

    await user.type(within(first).getByLabelText('Field name'), 'score');
    await user.type(within(first).getByLabelText('Range'), '1-10');
    await user.type(within(first).getByLabelText('Field description'), 'How good');
    await user.type(within(second).getByLabelText('Field name'), 'tone');
    await user.type(within(second).getByLabelText('Options'), 'negative{Enter}');
    await user.type(within(second).getByLabelText('Field description'), 'The tone');
    // An unknown variable is named before anything is sent.
    await user.type(within(form).getByLabelText('Prompt text'), ' {{{{foo}}');
    await user.click(screen.getByTestId('form-save'));
    expect(
      await screen.findByText(/^Unknown variable \{\{foo\}\}: use \{\{transcript\}\}/, {
        selector: '[data-testid="field-error"]',
      }),
    ).toBeInTheDocument();
    expect(writes).toEqual([]);

    // The server's spec message lands on the field it names, with the failure toast.
    await user.clear(within(form).getByLabelText('Prompt text'));
    await user.type(within(form).getByLabelText('Prompt text'), 'Rate {{{{transcript}}');
    await user.click(screen.getByTestId('form-save'));
    await waitFor(() => expect(errorsIn(first)).toContain(range));
    expect(screen.getByTestId('toast-error')).toHaveTextContent('Failed to save prompt');
    expect(writes[0]!.body).toMatchObject({
      name: 'Sales review',
      prompt: 'Rate {{transcript}}',
      type: 'summary',
      scope: null,
      expectedFormat: [
        { name: 'score', type: 'integer', range: '1-10', description: 'How good' },
        { name: 'tone', type: 'custom', options: ['positive', 'negative'], description: 'The tone' },
      ],
    });

    answer = { status: 201, body: { ...existing, _id: 'p2', name: 'Sales review', version: 1 } };
    await user.click(screen.getByTestId('form-save'));
    expect(await screen.findByText('Prompt created successfully')).toBeInTheDocument();
    expect(screen.queryByTestId('prompt-form')).toBeNull();
  });

  it('asks before deleting and says how it went', async () => {
    const writes = fakeGateway(() => ({ status: 200, body: { message: 'Prompt deleted successfully' } }));
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Delete Call quality' }));
    expect(screen.getByText('Are you sure you want to delete this prompt?')).toBeInTheDocument();
    await user.click(screen.getByTestId('confirm-yes'));
    expect(await screen.findByText('Prompt deleted successfully')).toBeInTheDocument();
    expect(writes).toEqual([{ method: 'DELETE', path: '/api/prompts/p1', body: null }]);
  });
});
