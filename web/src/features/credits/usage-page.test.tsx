/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// The usage page with the app's store and RTK Query API; only `fetch` is faked.
import { afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CreditUsageDto } from '@earshot/contracts';
import { fakeGateway, json, renderPage } from '../../../test/fake-gateway';
import UsagePage from './usage-page';

const COMPANY = 'c0000000-0000-4000-8000-000000000001';
const OTHER = 'c0000000-0000-4000-8000-000000000002';
const usage: CreditUsageDto = {
  from: '2026-03-01',
  to: '2026-03-31',
  currency: 'EUR',
  creditRate: 0.5,
  total: 12.5,
  // The server gives every day of the period; the table lists the days with use.
  byDay: [
    { day: '2026-03-01', credits: 0 },
    { day: '2026-03-02', credits: 10 },
    { day: '2026-03-03', credits: 2.5 },
  ],
  byUser: [
    { userId: 'u1', name: 'Ann Lee', credits: 10 },
    { userId: 'u2', name: 'Bo Park', credits: 2.5 },
  ],
  byModel: [
    { model: 'gpt-test', credits: 10, inputTokens: 1200, outputTokens: 500, seconds: 0 },
    { model: 'pocketsphinx', credits: 2.5, inputTokens: 0, outputTokens: 0, seconds: 90 },
  ],
  byFeature: [
    { feature: 'chat', credits: 10 },
    { feature: 'transcription', credits: 2.5 },
  ],
};

beforeAll(() => {
  // jsdom draws nothing: without a 2D context the chart is left out and the tables hold the figures.
  HTMLCanvasElement.prototype.getContext = (() => null) as typeof HTMLCanvasElement.prototype.getContext;
});
afterEach(() => localStorage.clear());

function gateway() {
  return fakeGateway((call) => {
    if (/^\/api\/companies\/[^/]+\/usage$/.test(call.path) || call.path === '/api/credits/me/usage') return json(usage);
    if (call.path === '/api/companies/dropdown')
      return json([
        { _id: COMPANY, name: 'Acme' },
        { _id: OTHER, name: 'Zed' },
      ]);
    return undefined;
  });
}

describe('usage page', () => {
  it('an ADMIN sees their company by day, user, model and feature, and the CSV of the same period', async () => {
    const sent = gateway();
    renderPage(<UsagePage />, { path: '/usage', url: '/usage?from=2026-03-01&to=2026-03-31', role: 'ADMIN' });
    expect(await screen.findByTestId('usage-total')).toHaveTextContent('12.5 credits');
    expect(screen.getByText('worth €6.25')).toBeInTheDocument();
    expect(screen.getAllByTestId('usage-by-day-row').map((row) => row.textContent)).toEqual([
      '03-0210 credits',
      '03-032.5 credits',
    ]);
    expect(screen.getAllByTestId('usage-by-user-row').map((row) => row.textContent)).toEqual([
      'Ann Lee10 credits',
      'Bo Park2.5 credits',
    ]);
    expect(screen.getAllByTestId('usage-by-model-row').map((row) => row.textContent)).toEqual([
      'gpt-test1,200 in / 500 out10 credits',
      'pocketsphinx90 s audio2.5 credits',
    ]);
    expect(screen.getAllByTestId('usage-by-feature-row').map((row) => row.textContent)).toEqual([
      'Chat10 credits',
      'Transcription2.5 credits',
    ]);
    expect(screen.getByTestId('usage-csv')).toHaveAttribute(
      'href',
      `/api/companies/${COMPANY}/usage.csv?from=2026-03-01&to=2026-03-31`,
    );
    expect(sent[0]).toMatchObject({ path: `/api/companies/${COMPANY}/usage` });
    expect(Object.fromEntries(sent[0]!.query)).toEqual({ from: '2026-03-01', to: '2026-03-31' });
  });

  it('a USER sees only their own use, without a user breakdown or CSV', async () => {
    const sent = gateway();
    renderPage(<UsagePage />, { path: '/usage', url: '/usage', role: 'USER' });
    expect(await screen.findByTestId('usage-total')).toHaveTextContent('12.5 credits');
    expect(screen.getByText('The credits your own AI work used.')).toBeInTheDocument();
    expect(screen.queryByTestId('usage-by-user')).toBeNull();
    expect(screen.queryByTestId('usage-csv')).toBeNull();
    expect(sent.map((call) => call.path)).toEqual(['/api/credits/me/usage']);
  });

  it('a HOST_ADMIN picks the company first; the choice and the period go to the address', async () => {
    const sent = gateway();
    const user = userEvent.setup();
    renderPage(<UsagePage />, { path: '/usage', url: '/usage', role: 'HOST_ADMIN', companyId: null });
    expect(await screen.findByText('Choose a company to see its figures.')).toBeInTheDocument();
    await waitFor(() => expect(within(screen.getByTestId('report-company')).getAllByRole('option')).toHaveLength(3));
    await user.selectOptions(screen.getByTestId('report-company'), OTHER);
    expect(await screen.findByTestId('usage-total')).toHaveTextContent('12.5 credits');
    expect(sent.find((call) => call.path.endsWith('/usage'))?.path).toBe(`/api/companies/${OTHER}/usage`);
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-03-05' } });
    await waitFor(() =>
      expect(
        sent
          .filter((call) => call.path.endsWith('/usage'))
          .at(-1)
          ?.query.get('from'),
      ).toBe('2026-03-05'),
    );
  });

  it('leaves out a day of the address that does not exist, and says when the figures cannot be loaded', async () => {
    const sent = fakeGateway((call) =>
      call.path.endsWith('/usage') ? json({ message: 'Usage is resting' }, 503) : undefined,
    );
    renderPage(<UsagePage />, { path: '/usage', url: '/usage?from=2024-02-31&to=2024-02-29', role: 'ADMIN' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Usage is resting');
    expect(Object.fromEntries(sent[0]!.query)).toEqual({ to: '2024-02-29' });
  });

  it('says when there is no use', async () => {
    fakeGateway((call) =>
      call.path === '/api/credits/me/usage'
        ? json({
            ...usage,
            total: 0,
            byDay: [{ day: '2026-03-01', credits: 0 }],
            byUser: [],
            byModel: [],
            byFeature: [],
          })
        : undefined,
    );
    renderPage(<UsagePage />, { path: '/usage', url: '/usage', role: 'CALLER' });
    expect(await screen.findByTestId('usage-empty')).toHaveTextContent('No AI use in this period.');
  });
});
