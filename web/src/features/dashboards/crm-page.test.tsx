/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// The CRM dashboard with the app's store and RTK Query API; only `fetch` is faked.
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CrmDto } from '@earshot/contracts';
import { fakeGateway, json, renderPage, type Call } from '../../../test/fake-gateway';
import CrmPage from './crm-page';

const OTHER = 'c0000000-0000-4000-8000-000000000002';
const PROMPT = 'd0000000-0000-4000-8000-000000000001';
const CLIENT = 'b0000000-0000-4000-8000-000000000001';
const prompts = {
  items: [
    {
      _id: PROMPT,
      name: 'Sentiment',
      description: '',
      type: 'analysis',
      scope: null,
      isGlobal: true,
      version: 1,
      expectedFormat: [
        { name: 'score', type: 'integer', range: '1-10', description: 'Score' },
        { name: 'happy', type: 'boolean', description: 'Happy' },
      ],
    },
  ],
};

function crm(withTrend: boolean): CrmDto {
  return {
    items: [
      {
        clientId: CLIENT,
        name: 'Nordic Tyres',
        organisation: 'Nordic Tyres AS',
        calls: 12,
        lastContact: '2026-03-17T10:00:00.000Z',
        openTasks: 2,
        trend: withTrend
          ? [
              { period: '2026-01-01', value: 0.5 },
              { period: '2026-02-01', value: null },
              { period: '2026-03-01', value: 0.75 },
            ]
          : [],
      },
      {
        clientId: 'b0000000-0000-4000-8000-000000000002',
        name: 'Quiet Ltd',
        organisation: null,
        calls: 0,
        lastContact: null,
        openTasks: 0,
        trend: [],
      },
    ],
  };
}

function gateway(): Call[] {
  return fakeGateway((call) =>
    call.path === '/api/dashboards/crm'
      ? json(crm(call.query.has('field')))
      : call.path === '/api/prompts/available'
        ? json(prompts)
        : call.path === '/api/companies/dropdown'
          ? json([{ _id: OTHER, name: 'Zed' }])
          : undefined,
  );
}

afterEach(() => localStorage.clear());

describe('CRM dashboard', () => {
  it('lists the clients with calls, last contact and open tasks; a row opens the client', async () => {
    const sent = gateway();
    const user = userEvent.setup();
    renderPage(<CrmPage />, { path: '/crm', url: '/crm', role: 'CALLER' });
    const table = await screen.findByTestId('crm-table');
    expect(await within(table).findByRole('link', { name: 'Nordic Tyres' })).toHaveAttribute(
      'href',
      `/client/${CLIENT}`,
    );
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.textContent);
    expect(rows[0]).toContain('Nordic Tyres AS12Mar 17, 20262');
    expect(rows[1]).toContain('Quiet Ltd—0—0');
    expect(Object.fromEntries(sent.find((call) => call.path === '/api/dashboards/crm')!.query)).toEqual({});
    await user.click(within(table).getByRole('button', { name: 'Open Nordic Tyres' }));
    expect(screen.getByTestId('elsewhere')).toHaveAttribute('data-path', `/client/${CLIENT}`);
  });

  it('a chosen scorecard field adds its six-month trend, each month named in its text alternative', async () => {
    const sent = gateway();
    const user = userEvent.setup();
    renderPage(<CrmPage />, { path: '/crm', url: '/crm', role: 'ADMIN' });
    await screen.findByRole('link', { name: 'Nordic Tyres' });
    await waitFor(() => expect(within(screen.getByTestId('scorecard-prompt')).getAllByRole('option')).toHaveLength(2));
    await user.selectOptions(screen.getByTestId('scorecard-prompt'), 'Sentiment');
    await user.selectOptions(screen.getByTestId('scorecard-field'), 'happy');
    expect(await screen.findByRole('columnheader', { name: /Trend of happy/ })).toBeInTheDocument();
    expect(Object.fromEntries(sent.filter((call) => call.path === '/api/dashboards/crm').at(-1)!.query)).toEqual({
      promptId: PROMPT,
      field: 'happy',
    });
    // A yes/no field's trend is its rate; a month without runs is a dash.
    expect(screen.getByRole('img', { name: 'happy: Jan 2026 50%, Feb 2026 —, Mar 2026 75%' })).toHaveTextContent('75%');
  });

  it('a HOST_ADMIN picks the company first', async () => {
    const sent = gateway();
    const user = userEvent.setup();
    renderPage(<CrmPage />, { path: '/crm', url: '/crm', role: 'HOST_ADMIN', companyId: null });
    expect(await screen.findByTestId('pick-company-first')).toBeInTheDocument();
    expect(sent.filter((call) => call.path === '/api/dashboards/crm')).toHaveLength(0);
    await waitFor(() => expect(within(screen.getByTestId('dashboard-company')).getAllByRole('option')).toHaveLength(2));
    await user.selectOptions(screen.getByTestId('dashboard-company'), 'Zed');
    await screen.findByRole('link', { name: 'Nordic Tyres' });
    expect(
      sent
        .filter((call) => call.path === '/api/dashboards/crm')
        .at(-1)!
        .query.get('companyId'),
    ).toBe(OTHER);
  });
});
