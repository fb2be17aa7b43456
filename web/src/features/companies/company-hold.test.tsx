/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// A whole company's legal hold in the company dialog (HOST_ADMIN), and an ADMIN's read-only view
// of their company's data policies; only `fetch` is faked.
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HOLD_MESSAGES, type CompanyPolicies } from '@earshot/contracts';
import { fakeGateway, json, renderPage } from '../../../test/fake-gateway';
import CompaniesPage from './companies-page';
import DataPoliciesPage from './data-policies-page';
import type { Company } from './model';

const ID = '00000000-0000-4000-8000-0000000000c2';
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
  balance: 0,
  createdAt: '2026-01-02T10:00:00.000Z',
  updatedAt: '2026-01-02T10:00:00.000Z',
  userCount: 3,
  storageUsed: 0,
  pendingServices: [],
  hold: null,
};
const policies: CompanyPolicies = {
  redaction: 'text_audio',
  keepOriginal: false,
  encryption: true,
  retention: { recordingsDays: 90, chatsDays: null, auditDays: 400 },
};

afterEach(() => localStorage.clear());

describe('company legal hold', () => {
  it('HOST_ADMIN places a hold with a reason; the list shows the badge; deleting the held company shows the 409 message', async () => {
    const state = { company };
    const calls = fakeGateway((call) => {
      if (call.path === '/api/companies' && call.method === 'GET')
        return json({ items: [state.company], page: 1, pageSize: 20, total: 1, totalPages: 1 });
      if (call.path === `/api/companies/${ID}/policies`) return json(policies);
      if (call.path === `/api/companies/${ID}/hold` && call.method === 'PUT') {
        const { hold, reason } = call.body as { hold: boolean; reason: string };
        state.company = { ...state.company, hold: hold ? { reason, by: 'me', at: '2026-02-03T10:00:00.000Z' } : null };
        return json({ hold, reason, by: 'me', at: '2026-02-03T10:00:00.000Z' });
      }
      if (call.path === `/api/companies/${ID}` && call.method === 'DELETE')
        return json({ message: HOLD_MESSAGES.company, code: 'CONFLICT' }, 409);
      return undefined;
    });
    const user = userEvent.setup();
    renderPage(<CompaniesPage />, { path: '/companies', url: '/companies', role: 'HOST_ADMIN', companyId: null });
    await user.click(await screen.findByRole('button', { name: 'Edit Acme' }));
    const section = await screen.findByTestId('company-hold');
    await user.click(within(section).getByRole('button', { name: 'Place legal hold' }));
    const dialog = await screen.findByTestId('hold-dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Place legal hold' }));
    await waitFor(() => expect(within(dialog).getByLabelText('Reason')).toHaveAttribute('aria-invalid', 'true'));
    await user.type(within(dialog).getByLabelText('Reason'), 'Regulator inquiry 4');
    await user.click(within(dialog).getByRole('button', { name: 'Place legal hold' }));
    await waitFor(() => expect(screen.queryByTestId('hold-dialog')).toBeNull());
    expect(calls.find((call) => call.method === 'PUT' && call.path.endsWith('/hold'))?.body).toEqual({
      hold: true,
      reason: 'Regulator inquiry 4',
    });
    expect(within(section).getByTestId('hold-badge').getAttribute('title')).toMatch(/Regulator inquiry 4/);
    expect(within(section).getByRole('button', { name: 'Lift legal hold' })).toBeInTheDocument();

    await user.click(screen.getAllByRole('button', { name: 'Close' })[0]!);
    await waitFor(() => expect(screen.queryByTestId('company-hold')).toBeNull());
    expect(screen.getByTestId('hold-badge')).toHaveTextContent('Held');
    await user.click(screen.getByRole('button', { name: 'Delete Acme' }));
    await user.click(screen.getByTestId('confirm-yes'));
    expect(await screen.findByText(HOLD_MESSAGES.company)).toBeInTheDocument();
  });
});

describe('data policies for the company’s ADMIN', () => {
  it('reads their company’s policies, with nothing to change', async () => {
    const calls = fakeGateway((call) => (call.path === `/api/companies/${ID}/policies` ? json(policies) : undefined));
    renderPage(<DataPoliciesPage />, { path: '/data-policies', url: '/data-policies', role: 'ADMIN', companyId: ID });
    const list = await screen.findByTestId('own-policies');
    expect(within(list).getByTestId('own-policy-redaction')).toHaveTextContent(
      'Redact the transcript and silence the audio',
    );
    expect(within(list).getByTestId('own-policy-encryption')).toHaveTextContent('On');
    expect(within(list).getByTestId('own-policy-keepOriginal')).toHaveTextContent('Off');
    expect(within(list).getByTestId('own-policy-recordingsDays')).toHaveTextContent('90 days');
    expect(within(list).getByTestId('own-policy-chatsDays')).toHaveTextContent('Forever');
    expect(screen.queryByRole('button')).toBeNull();
    expect(calls.every((call) => call.method === 'GET')).toBe(true);
  });
});
