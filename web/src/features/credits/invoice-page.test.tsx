/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// The statement page with the app's store and RTK Query API; only `fetch` is faked.
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { StatementDto } from '@earshot/contracts';
import { fakeGateway, json, renderPage } from '../../../test/fake-gateway';
import InvoicePage from './invoice-page';

const COMPANY = 'c0000000-0000-4000-8000-000000000001';
const statement = (month: string): StatementDto => ({
  companyId: COMPANY,
  companyName: 'Acme',
  month,
  currency: 'EUR',
  creditRate: 0.1,
  opening: 100,
  grants: 50,
  adjustments: -5,
  totalCharges: 12.5,
  closing: 132.5,
  // Two lines of one model differ by unit: input and output tokens are priced apart.
  charges: [
    { feature: 'chat', model: 'gpt-test', unit: 'input_1k', quantity: 10, unitPrice: 0.7, credits: 7 },
    { feature: 'chat', model: 'gpt-test', unit: 'output_1k', quantity: 1.5, unitPrice: 2, credits: 3 },
    {
      feature: 'transcription',
      model: 'pocketsphinx',
      unit: 'audio_minute',
      quantity: 1.5,
      unitPrice: 1.6667,
      credits: 2.5,
    },
  ],
});

afterEach(() => localStorage.clear());

function gateway() {
  return fakeGateway((call) => {
    const match = /^\/api\/companies\/([^/]+)\/statement$/.exec(call.path);
    if (match)
      return match[1] === COMPANY
        ? json(statement(call.query.get('month') ?? ''))
        : { status: 404, body: { message: 'Company not found', code: 'NOT_FOUND' } };
    if (call.path === '/api/companies/dropdown') return json([{ _id: COMPANY, name: 'Acme' }]);
    return undefined;
  });
}

describe('invoice page', () => {
  it('an ADMIN sees the month’s statement: balances, charges by feature, model, unit and unit price, the PDF', async () => {
    const sent = gateway();
    renderPage(<InvoicePage />, { path: '/invoice', url: '/invoice?month=2026-03', role: 'ADMIN', guarded: true });
    const view = await screen.findByTestId('statement');
    expect(within(view).getByRole('heading', { name: 'Statement March 2026' })).toBeInTheDocument();
    expect(within(view).getByText('for Acme')).toBeInTheDocument();
    expect(within(view).getByTestId('statement-opening')).toHaveTextContent('Opening balance100€10.00');
    expect(within(view).getByTestId('statement-grants')).toHaveTextContent('Grants and top-ups50€5.00');
    expect(within(view).getByTestId('statement-adjustments')).toHaveTextContent('Adjustments-5-€0.50');
    expect(within(view).getByTestId('statement-total-charges')).toHaveTextContent('Total charges-12.5-€1.25');
    expect(within(view).getByTestId('statement-closing')).toHaveTextContent('Closing balance132.5€13.25');
    expect(
      within(view)
        .getAllByTestId('statement-charge')
        .map((row) => row.textContent),
    ).toEqual([
      'Chatgpt-test1k input tokens10 × 0.7100.77€0.70',
      'Chatgpt-test1k output tokens1.5 × 21.523€0.30',
      'TranscriptionpocketsphinxMinute of audio1.5 × 1.66671.51.66672.5€0.25',
    ]);
    expect(within(view).getByTestId('statement-rounding')).toHaveTextContent(
      'quantity × unit price, rounded half up to 4 decimals',
    );
    expect(screen.getByTestId('statement-pdf')).toHaveAttribute(
      'href',
      `/api/companies/${COMPANY}/statement.pdf?month=2026-03`,
    );
    expect(sent[0]).toMatchObject({ path: `/api/companies/${COMPANY}/statement` });
  });

  it('a HOST_ADMIN picks the company and the month, both kept in the address', async () => {
    const sent = gateway();
    const user = userEvent.setup();
    renderPage(<InvoicePage />, {
      path: '/invoice',
      url: '/invoice?month=2026-02',
      role: 'HOST_ADMIN',
      companyId: null,
      guarded: true,
    });
    expect(await screen.findByText('Choose a company to see its figures.')).toBeInTheDocument();
    await waitFor(() => expect(within(screen.getByTestId('report-company')).getAllByRole('option')).toHaveLength(2));
    await user.selectOptions(screen.getByTestId('report-company'), COMPANY);
    expect(await screen.findByRole('heading', { name: 'Statement February 2026' })).toBeInTheDocument();
    expect(sent.find((call) => call.path.endsWith('/statement'))?.query.get('month')).toBe('2026-02');
  });

  it('a month without charges shows them as 0, not -0', async () => {
    fakeGateway((call) =>
      call.path.endsWith('/statement')
        ? json({
            ...statement('2026-04'),
            opening: 0,
            grants: 0,
            adjustments: 0,
            totalCharges: 0,
            closing: 0,
            charges: [],
          })
        : undefined,
    );
    renderPage(<InvoicePage />, { path: '/invoice', url: '/invoice?month=2026-04', role: 'ADMIN' });
    expect(await screen.findByTestId('statement-total-charges')).toHaveTextContent('Total charges0€0.00');
    expect(screen.getByText('No charges this month.')).toBeInTheDocument();
  });

  it('asks for this month when the address names no month, and says when the statement cannot be loaded', async () => {
    const sent = fakeGateway((call) =>
      call.path.endsWith('/statement') ? json({ message: 'Statements are resting' }, 503) : undefined,
    );
    renderPage(<InvoicePage />, { path: '/invoice', url: '/invoice?month=2026-13', role: 'ADMIN', guarded: true });
    expect(await screen.findByRole('alert')).toHaveTextContent('Statements are resting');
    expect(sent[0]?.query.get('month')).toBe(new Date().toISOString().slice(0, 7));
  });

  it.each(['USER', 'CALLER'] as const)(
    'the route guard sends a %s from /invoice to /chat, as from any admin page, and nothing is asked',
    async (role) => {
      const sent = gateway();
      renderPage(<InvoicePage />, { path: '/invoice', url: '/invoice?month=2026-03', role, guarded: true });
      expect(await screen.findByTestId('elsewhere')).toHaveAttribute('data-path', '/chat');
      expect(screen.queryByRole('heading', { name: 'Invoice' })).toBeNull();
      expect(sent).toHaveLength(0);
    },
  );
});
