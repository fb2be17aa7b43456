/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// The e-mail page with the app's store and RTK Query API; only the network is faked: `fetch`
// answers like the gateway.
import { describe, expect, it, jest } from '@jest/globals';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import type { EmailTemplateDto, OutgoingMailDetailDto, OutgoingMailDto } from '@earshot/contracts';
import { en } from '../../i18n/locales/en';
import { makeStore } from '../../lib/store';
import EmailTemplatesPage from './email-templates-page';
import { linksIn } from './links';

const i18n = i18next.createInstance();
void i18n.init({ lng: 'en', resources: { en: { translation: en } }, interpolation: { escapeValue: false } });

const ACME = '00000000-0000-4000-8000-0000000000a1';
const template = (id: string, extra: Partial<EmailTemplateDto> = {}): EmailTemplateDto => ({
  _id: id,
  type: 'password_reset',
  language: 'en',
  companyId: null,
  subject: 'Reset your {{company.name}} password',
  html: '<p>{{link}}</p>',
  text: 'Go: {{link}}',
  variables: ['user.firstName', 'company.name', 'link'],
  shipped: true,
  updatedAt: '2026-11-01T00:00:00.000Z',
  ...extra,
});
const T1 = '00000000-0000-4000-8000-000000000001';
const T2 = '00000000-0000-4000-8000-000000000002';

interface Call {
  method: string;
  path: string;
  body: unknown;
}

function fakeGateway(answer: (call: Call) => { status: number; body: unknown } | undefined) {
  const calls: Call[] = [];
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const request = input as Request;
    const url = new URL(request.url);
    const text = await request.text();
    const call = {
      method: request.method,
      path: `${url.pathname}${url.search}`,
      body: text ? JSON.parse(text) : undefined,
    };
    calls.push(call);
    const json = (status: number, body: unknown) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    if (url.pathname === '/api/companies/dropdown') return json(200, [{ _id: ACME, name: 'Acme' }]);
    if (url.pathname === '/api/email/preview')
      return json(200, { subject: 'Reset your Earshot password', html: '<p>preview</p>', text: 'preview' });
    const answered = answer(call);
    return answered ? json(answered.status, answered.body) : json(404, { message: 'Not found' });
  }) as unknown as typeof fetch;
  return calls;
}

function renderAt(url: string) {
  render(
    <Provider store={makeStore()}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={[url]}>
          <EmailTemplatesPage />
        </MemoryRouter>
      </I18nextProvider>
    </Provider>,
  );
}

describe('e-mail templates page', () => {
  it('shows the server’s refusal of an unknown variable on the field it names, and saves a valid edit', async () => {
    const calls = fakeGateway(({ method, path, body }) => {
      if (method === 'GET' && path.startsWith('/api/email?companyId=platform'))
        return {
          status: 200,
          body: [template(T1), template(T2, { type: 'invitation', language: 'fr', subject: 'Bienvenue' })],
        };
      if (method === 'PUT' && path === `/api/email/${T1}`) {
        const draft = body as { text: string };
        return draft.text.includes('frstName')
          ? {
              status: 400,
              body: {
                message: 'Unknown variable {{user.frstName}}: this template may use {{user.firstName}}',
                code: 'BAD_REQUEST',
                details: [{ field: 'body.text', message: 'Unknown variable {{user.frstName}}' }],
              },
            }
          : { status: 200, body: template(T1, { ...(body as object), shipped: false }) };
      }
      return undefined;
    });
    const user = userEvent.setup();
    renderAt('/email-templates');
    expect(await screen.findAllByTestId('data-table-row')).toHaveLength(2);
    expect(screen.getByText('Password reset')).toBeInTheDocument();

    await user.click(screen.getAllByRole('button', { name: 'Edit' })[0]!);
    const editor = screen.getByTestId('template-editor');
    const text = within(editor).getByLabelText('Plain text');
    await user.clear(text);
    await user.type(text, 'Hi {{{{user.frstName}}');
    await user.click(within(editor).getByRole('button', { name: 'Save' }));
    expect(await within(editor).findByText('Unknown variable {{user.frstName}}')).toBeInTheDocument();
    expect(text).toHaveAttribute('aria-invalid', 'true');

    // A variable button inserts at the caret of the field last used.
    await user.clear(text);
    await user.click(text);
    await user.click(within(editor).getByRole('button', { name: '{{user.firstName}}' }));
    expect(text).toHaveValue('{{user.firstName}}');
    await user.click(within(editor).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByTestId('template-editor')).toBeNull());
    expect(calls.filter((c) => c.method === 'PUT').at(-1)!.body).toEqual({
      subject: 'Reset your {{company.name}} password',
      html: '<p>{{link}}</p>',
      text: '{{user.firstName}}',
    });
    expect(await screen.findByText('Template saved')).toBeInTheDocument();
  });

  it('lists outgoing mail and opens a message with its links', async () => {
    const message: OutgoingMailDto = {
      _id: T1,
      companyId: null,
      type: 'password_reset',
      to: 'ada@acme.test',
      subject: 'Reset your Acme password',
      status: 'sent',
      attempts: 1,
      error: null,
      createdAt: '2026-11-23T08:00:00.000Z',
      sentAt: '2026-11-23T08:00:01.000Z',
      nextAttemptAt: null,
    };
    const detail: OutgoingMailDetailDto = {
      ...message,
      html: '<p>Reset</p>',
      text: 'Choose a new password: http://localhost:3000/reset-password?token=abc.',
    };
    fakeGateway(({ path }) => {
      if (path.startsWith('/api/email/outbox?'))
        return { status: 200, body: { items: [message], page: 1, pageSize: 25, total: 1, totalPages: 1 } };
      if (path === `/api/email/outbox/${T1}`) return { status: 200, body: detail };
      return undefined;
    });
    const user = userEvent.setup();
    renderAt('/email-templates?tab=outbox');
    expect(await screen.findByText('ada@acme.test')).toBeInTheDocument();
    expect(within(screen.getByTestId('outbox-table')).getByText('Sent')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Open the message to ada@acme.test' }));
    const link = await within(screen.getByTestId('mail-drawer')).findByTestId('mail-link');
    expect(link).toHaveAttribute('href', 'http://localhost:3000/reset-password?token=abc');
  });
});

describe('links in a plain-text mail', () => {
  it('finds each http(s) link once, without trailing punctuation, and nothing else', () => {
    expect(
      linksIn('Go to https://a.test/x?y=1. Or http://b.test/, or javascript:alert(1) or https://a.test/x?y=1'),
    ).toEqual(['https://a.test/x?y=1', 'http://b.test/']);
  });
});
