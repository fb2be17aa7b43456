/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// The companies page's balance column and credits dialog with the app's store and RTK Query API;
// only `fetch` is faked.
import { describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CreditsDto, LedgerEntryDto } from '@earshot/contracts';
import { fakeGateway, json, renderPage } from '../../../test/fake-gateway';
import CompaniesPage from './companies-page';
import type { Company } from './model';

const ID = '00000000-0000-4000-8000-0000000000c1';
const company: Company = {
  _id: ID,
  name: 'Acme',
  code: 'ACME',
  domain: 'acme',
  type: 'business',
  status: 'active',
  maxUsers: 10,
  maxStorage: null,
  language: 'en',
  encryption: false,
  apiKey: null,
  partnerCompanyId: null,
  favIcon: null,
  logo: null,
  mainPageLogo: null,
  settings: { theme: {} },
  balance: 1234.5,
  createdAt: '2026-01-02T10:00:00.000Z',
  updatedAt: '2026-01-02T10:00:00.000Z',
  userCount: 3,
  storageUsed: 0,
  pendingServices: [],
};
const entry = (n: number, extra: Partial<LedgerEntryDto> = {}): LedgerEntryDto => ({
  _id: `e${n}`,
  kind: 'charge',
  amount: -2,
  reason: null,
  feature: 'chat',
  model: 'gpt-test',
  unit: 'output_1k',
  quantity: 0.5,
  unitPrice: 4,
  eventId: `ev${n}`,
  userId: 'u1',
  createdAt: '2026-03-02T10:00:00.000Z',
  ...extra,
});

function gateway(state: { balance: number; budget: number | null }) {
  return fakeGateway((call) => {
    if (call.path === '/api/companies' && call.method === 'GET')
      return json({ items: [{ ...company, balance: state.balance }], page: 1, pageSize: 20, total: 1, totalPages: 1 });
    if (call.path === `/api/companies/${ID}/credits` && call.method === 'GET') {
      const page = Number(call.query.get('page'));
      const body: CreditsDto = {
        balance: state.balance,
        reserved: 3,
        currency: 'EUR',
        monthlyBudget: state.budget,
        monthlyGrant: null,
        ledger: {
          items:
            page === 1
              ? [
                  entry(1),
                  entry(2, {
                    kind: 'grant',
                    amount: 1000,
                    reason: 'Welcome',
                    feature: null,
                    model: null,
                    unit: null,
                    quantity: null,
                    unitPrice: null,
                    eventId: null,
                  }),
                ]
              : [
                  entry(3, {
                    kind: 'adjustment',
                    amount: -5,
                    reason: 'Refund',
                    feature: null,
                    model: null,
                    unit: null,
                    quantity: null,
                    unitPrice: null,
                  }),
                ],
          page,
          pageSize: 10,
          total: 11,
          totalPages: 2,
        },
      };
      return json(body);
    }
    if (call.path === `/api/companies/${ID}/credits` && call.method === 'POST') {
      state.balance += (call.body as { amount: number }).amount;
      return json(
        {
          balance: state.balance,
          reserved: 3,
          entry: entry(9, { kind: 'grant', amount: (call.body as { amount: number }).amount }),
        },
        201,
      );
    }
    if (call.path === `/api/companies/${ID}/credits/settings`) {
      state.budget = (call.body as { monthlyBudget: number | null }).monthlyBudget;
      return json(call.body);
    }
    return undefined;
  });
}

describe('company credits', () => {
  it('shows each company’s balance and opens its credits with the ledger, page by page', async () => {
    const sent = gateway({ balance: 1234.5, budget: null });
    const user = userEvent.setup();
    renderPage(<CompaniesPage />, { path: '/companies', url: '/companies', role: 'HOST_ADMIN', companyId: null });
    expect(await screen.findByTestId('company-balance')).toHaveTextContent('1,234.5');
    await user.click(screen.getByRole('button', { name: 'Credits of Acme' }));
    const dialog = await screen.findByTestId('credits-dialog');
    // The balance shows "…" until the credits have arrived.
    await waitFor(() => expect(within(dialog).getByTestId('credits-balance')).toHaveTextContent('1,234.5'));
    expect(within(dialog).getByTestId('credits-summary')).toHaveTextContent(
      'Reserved3Monthly budgetNoneMonthly grantNone',
    );
    const rows = await within(dialog).findAllByTestId('data-table-row');
    expect(rows[0]).toHaveTextContent('Charge-2Chat · gpt-test · 0.5 × 1k output tokens at 4');
    expect(rows[1]).toHaveTextContent('Grant+1,000Welcome');
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    await waitFor(() =>
      expect(within(dialog).getAllByTestId('data-table-row')[0]).toHaveTextContent('Adjustment-5Refund'),
    );
    expect(sent.filter((call) => call.path.endsWith('/credits')).map((call) => call.query.get('page'))).toEqual([
      '1',
      '2',
    ]);
  });

  it('grants credits and records a negative amount as an adjustment, each with a reason', async () => {
    const sent = gateway({ balance: 100, budget: null });
    const user = userEvent.setup();
    renderPage(<CompaniesPage />, { path: '/companies', url: '/companies', role: 'HOST_ADMIN', companyId: null });
    await user.click(await screen.findByRole('button', { name: 'Credits of Acme' }));
    const form = await screen.findByTestId('credit-grant-form');
    await user.type(within(form).getByLabelText('Amount'), '0');
    await user.click(within(form).getByRole('button', { name: 'Record' }));
    expect(await within(form).findByText('Enter a non-zero amount with at most four decimals')).toBeInTheDocument();
    expect(within(form).getByText('Required')).toBeInTheDocument();
    await user.clear(within(form).getByLabelText('Amount'));
    await user.type(within(form).getByLabelText('Amount'), '-25.5');
    await user.type(within(form).getByLabelText('Reason'), 'Refund of a double charge');
    await user.click(within(form).getByRole('button', { name: 'Record' }));
    expect(await screen.findByText('Recorded: the balance is now 74.5')).toBeInTheDocument();
    expect(sent.find((call) => call.method === 'POST')?.body).toEqual({
      amount: -25.5,
      reason: 'Refund of a double charge',
    });
    // The list's balance is asked again after the entry.
    await waitFor(() => expect(screen.getByTestId('company-balance')).toHaveTextContent('74.5'));
  });

  it('sets the monthly budget and leaves the grant off when blank', async () => {
    const sent = gateway({ balance: 100, budget: null });
    const user = userEvent.setup();
    renderPage(<CompaniesPage />, { path: '/companies', url: '/companies', role: 'HOST_ADMIN', companyId: null });
    await user.click(await screen.findByRole('button', { name: 'Credits of Acme' }));
    const form = await screen.findByTestId('credit-settings-form');
    await user.type(within(form).getByLabelText('Monthly budget'), '500');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(sent.find((call) => call.method === 'PUT')?.body).toEqual({ monthlyBudget: 500, monthlyGrant: null }),
    );
    await waitFor(() => expect(screen.getByTestId('credits-summary')).toHaveTextContent('Monthly budget500'));
  });
});
