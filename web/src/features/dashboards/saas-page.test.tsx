/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// The platform overview with the app's store and RTK Query API; only `fetch` is faked.
import { afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { screen, within } from '@testing-library/react';
import type { SaasDto } from '@earshot/contracts';
import { fakeGateway, json, renderPage } from '../../../test/fake-gateway';
import SaasPage, { lastMonths, monthlyTotals } from './saas-page';

const ACME = 'c0000000-0000-4000-8000-000000000001';
const ZED = 'c0000000-0000-4000-8000-000000000002';
const month = new Date().toISOString().slice(0, 7);
const saas: SaasDto = {
  statuses: [
    { status: 'active', count: 2 },
    { status: 'suspended', count: 1 },
  ],
  activeUsers: 7,
  companies: [
    {
      companyId: ACME,
      name: 'Acme',
      status: 'active',
      users: 5,
      activeUsers: 4,
      storageBytes: 900 * 1024 * 1024,
      maxStorageBytes: 1024 * 1024 * 1024,
      transcriptionSeconds: 5400,
      credits: 120.5,
    },
    {
      companyId: ZED,
      name: 'Zed & Co',
      status: 'suspended',
      users: 2,
      activeUsers: 0,
      storageBytes: 1024,
      maxStorageBytes: null,
      transcriptionSeconds: 0,
      credits: 0,
    },
  ],
  monthly: [
    { month, companyId: ACME, transcriptionSeconds: 5400, credits: 120.5 },
    { month, companyId: ZED, transcriptionSeconds: 1800, credits: 10 },
  ],
  top: [{ companyId: ACME, name: 'Acme', credits: 120.5, transcriptionSeconds: 5400 }],
};

beforeAll(() => {
  HTMLCanvasElement.prototype.getContext = (() => null) as typeof HTMLCanvasElement.prototype.getContext;
});
afterEach(() => localStorage.clear());

describe('SaaS dashboard', () => {
  it('shows companies by status, active people, each company with its storage against its limit, and links into it', async () => {
    fakeGateway((call) => (call.path === '/api/dashboards/saas' ? json(saas) : undefined));
    renderPage(<SaasPage />, { path: '/saas', url: '/saas', role: 'HOST_ADMIN', companyId: null });
    expect(await screen.findByTestId('saas-active-users')).toHaveTextContent('7');
    expect(screen.getByTestId('saas-status-suspended')).toHaveTextContent('1');
    const table = screen.getByTestId('saas-companies');
    expect(within(table).getAllByRole('link', { name: 'Zed & Co' })[0]).toHaveAttribute(
      'href',
      '/companies?q=Zed%20%26%20Co',
    );
    expect(within(table).getByRole('link', { name: 'Analytics of Acme' })).toHaveAttribute(
      'href',
      `/analytics?companyId=${ACME}`,
    );
    expect(within(table).getByRole('link', { name: 'Usage of Zed & Co' })).toHaveAttribute(
      'href',
      `/usage?companyId=${ZED}`,
    );
    const meter = within(table).getByRole('meter');
    expect(meter).toHaveAttribute('aria-valuenow', '88');
    expect(meter).toHaveAccessibleName('Storage used: 900 MB / 1 GB');
    expect(within(table).getByText('1 KB / no limit')).toBeInTheDocument();
    expect(screen.getAllByTestId('saas-top-row').map((row) => row.textContent)).toEqual([
      'Acme120.5 credits · 1:30:00 transcribed',
    ]);
    // This month's bar sums every company: 130.5 credits, 2 hours (hours from two hours a month up).
    expect(screen.getAllByTestId('saas-credits-chart-row').at(-1)).toHaveTextContent('130.5');
    expect(screen.getByTestId('saas-time-chart').querySelector('figcaption')).toHaveTextContent(
      'Transcription hours per month',
    );
    expect(screen.getAllByTestId('saas-time-chart-row').at(-1)).toHaveTextContent('2');
  });

  it('says when the overview cannot be loaded', async () => {
    fakeGateway((call) =>
      call.path === '/api/dashboards/saas' ? json({ message: 'Tenant is resting' }, 503) : undefined,
    );
    renderPage(<SaasPage />, { path: '/saas', url: '/saas', role: 'HOST_ADMIN', companyId: null });
    expect(await screen.findByRole('alert')).toHaveTextContent('Tenant is resting');
  });

  it('names the last 12 months across a year end and sums them', () => {
    const months = lastMonths(new Date('2026-02-15T12:00:00Z'));
    expect(months).toHaveLength(12);
    expect(months[0]).toBe('2025-03');
    expect(months.at(-1)).toBe('2026-02');
    expect(
      monthlyTotals(
        [
          { month: '2026-01', companyId: ACME, transcriptionSeconds: 3600, credits: 2 },
          { month: '2026-01', companyId: ZED, transcriptionSeconds: 1800, credits: 3 },
        ],
        ['2025-12', '2026-01'],
      ),
    ).toEqual({ credits: [0, 5], seconds: [0, 5400] });
  });
});
