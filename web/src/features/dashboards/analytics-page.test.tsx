/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// The analytics page with the app's store and RTK Query API; only `fetch` is faked.
import { afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AnalyticsDto, AvailablePromptDto, DashboardCallsDto, ScorecardPoint } from '@earshot/contracts';
import { fakeGateway, json, renderPage, type Call } from '../../../test/fake-gateway';
import AnalyticsPage from './analytics-page';

const COMPANY = 'c0000000-0000-4000-8000-000000000001';
const OTHER = 'c0000000-0000-4000-8000-000000000002';
const ANN = 'a0000000-0000-4000-8000-00000000000a';
const BO = 'a0000000-0000-4000-8000-00000000000b';
const CLIENT = 'b0000000-0000-4000-8000-000000000001';
const PROMPT = 'd0000000-0000-4000-8000-000000000001';

const analytics: AnalyticsDto = {
  calls: [
    { period: '2026-03-02', count: 3, seconds: 5400 },
    { period: '2026-03-09', count: 0, seconds: 0 },
    { period: '2026-03-16', count: 1, seconds: 900 },
  ],
  talk: { agentShare: 0.55, customerShare: 0.4, silenceShare: 0.05, interruptionsPerCall: 1.5, wordsPerMinute: 142.25 },
  byAgent: [
    { agentId: ANN, name: 'Ann Lee', count: 3, seconds: 5400, talkShare: 0.55, wordsPerMinute: 140 },
    { agentId: BO, name: 'Bo Park', count: 1, seconds: 900, talkShare: null, wordsPerMinute: null },
  ],
  byClient: [
    { clientId: CLIENT, name: '=SUM(A1), "the" Corp', count: 4, seconds: 6300, lastCall: '2026-03-17T10:00:00.000Z' },
  ],
  byTag: [{ tag: 'billing', count: 2, seconds: 1200 }],
};
const calls: DashboardCallsDto = {
  items: [
    {
      fileId: 'f1',
      originalName: 'monday-call.wav',
      date: '2026-03-02T09:30:00.000Z',
      seconds: 125,
      agentId: ANN,
      clientId: CLIENT,
    },
  ],
  total: 3,
};
const prompts: { items: AvailablePromptDto[] } = {
  items: [
    {
      _id: PROMPT,
      name: 'Call scorecard',
      description: '',
      type: 'analysis',
      scope: null,
      isGlobal: true,
      version: 1,
      expectedFormat: [
        { name: 'summary', type: 'string', description: 'A summary' },
        { name: 'clarity', type: 'integer', range: '1-10', description: 'Clarity' },
        { name: 'tone', type: 'custom', options: ['positive', 'negative'], description: 'Tone' },
        { name: 'resolved', type: 'boolean', description: 'Resolved' },
      ],
    },
  ],
} as never;
const scorecard: ScorecardPoint[] = [
  { period: '2026-03-02', distribution: { positive: 2, negative: 1 }, runs: 3 },
  { period: '2026-03-09', distribution: {}, runs: 0 },
];

beforeAll(() => {
  // jsdom draws nothing: without a 2D context the chart is left out and the tables hold the figures.
  HTMLCanvasElement.prototype.getContext = (() => null) as typeof HTMLCanvasElement.prototype.getContext;
});
afterEach(() => localStorage.clear());

function gateway(overrides: (call: Call) => ReturnType<typeof json> = () => undefined): Call[] {
  return fakeGateway(
    (call) =>
      overrides(call) ??
      (call.path === '/api/dashboards/analytics'
        ? json(analytics)
        : call.path === '/api/dashboards/calls'
          ? json(calls)
          : call.path === '/api/dashboards/scorecards'
            ? json(scorecard)
            : call.path === '/api/prompts/available'
              ? json(prompts)
              : call.path === '/api/tags'
                ? json([
                    { name: 'billing', count: 2 },
                    { name: 'urgent', count: 1 },
                  ])
                : call.path === '/api/clients/dropdown'
                  ? json([{ _id: CLIENT, name: 'Corp' }])
                  : call.path === '/api/companies/dropdown'
                    ? json([
                        { _id: COMPANY, name: 'Acme' },
                        { _id: OTHER, name: 'Zed' },
                      ])
                    : undefined),
  );
}

/** jsdom's Blob has no text(); the byte-order mark is kept (a TextDecoder would drop it). */
function readBlob(blob: Blob): Promise<string> {
  return new Promise((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new TextDecoder('utf-8', { ignoreBOM: true }).decode(reader.result as ArrayBuffer));
    reader.readAsArrayBuffer(blob);
  });
}

const sentTo = (sent: Call[], path: string) => sent.filter((call) => call.path === path);
const lastQuery = (sent: Call[], path: string) => Object.fromEntries(sentTo(sent, path).at(-1)!.query);

describe('analytics page', () => {
  it('asks for the range and grouping of the address and shows the totals, talk figures and breakdowns', async () => {
    const sent = gateway();
    renderPage(<AnalyticsPage />, {
      path: '/analytics',
      url: '/analytics?from=2026-03-01&to=2026-03-20&groupBy=week',
      role: 'ADMIN',
    });
    expect(await screen.findByTestId('total-calls')).toHaveTextContent('4');
    expect(screen.getByTestId('total-time')).toHaveTextContent('1:45:00');
    // Up to two hours a period, the time chart counts minutes.
    expect(screen.getAllByTestId('time-chart-row').map((row) => row.textContent)).toEqual([
      'Mar 2, 202690',
      'Mar 9, 20260',
      'Mar 16, 202615',
    ]);
    expect(lastQuery(sent, '/api/dashboards/analytics')).toEqual({
      from: '2026-03-01',
      to: '2026-03-20',
      groupBy: 'week',
    });
    expect(screen.getByTestId('talk-agentShare')).toHaveTextContent('55%');
    expect(screen.getByTestId('talk-interruptionsPerCall')).toHaveTextContent('1.5');
    expect(screen.getByTestId('talk-wordsPerMinute')).toHaveTextContent('142.3');
    expect(screen.getAllByTestId('calls-chart-row').map((row) => row.textContent)).toEqual([
      'Mar 2, 20263',
      'Mar 9, 20260',
      'Mar 16, 20261',
    ]);
    const agents = within(screen.getByTestId('by-agent'));
    expect(agents.getByText('Ann Lee')).toBeInTheDocument();
    expect(agents.getAllByText('—')).toHaveLength(2);
  });

  it('writes each filter to the address and asks again with it', async () => {
    const sent = gateway();
    const user = userEvent.setup();
    renderPage(<AnalyticsPage />, {
      path: '/analytics',
      url: '/analytics?from=2026-03-01&to=2026-03-20',
      role: 'ADMIN',
    });
    await screen.findByTestId('total-calls');
    await user.selectOptions(screen.getByTestId('filter-groupBy'), 'month');
    await waitFor(() => expect(lastQuery(sent, '/api/dashboards/analytics').groupBy).toBe('month'));
    // Agents come from the figures, clients from the clients the ADMIN may read, tags from /tags.
    await user.selectOptions(screen.getByTestId('filter-agentId'), 'Bo Park');
    await waitFor(() =>
      expect(lastQuery(sent, '/api/dashboards/analytics')).toEqual({
        from: '2026-03-01',
        to: '2026-03-20',
        groupBy: 'month',
        agentId: BO,
      }),
    );
    await user.selectOptions(screen.getByTestId('filter-clientId'), 'Corp');
    await user.selectOptions(screen.getByTestId('filter-tag'), 'urgent');
    await waitFor(() =>
      expect(lastQuery(sent, '/api/dashboards/analytics')).toMatchObject({
        agentId: BO,
        clientId: CLIENT,
        tag: 'urgent',
      }),
    );
    // The agent chosen stays offered though the filtered figures name only them.
    expect(
      within(screen.getByTestId('filter-agentId'))
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['All agents', 'Ann Lee', 'Bo Park']);
  });

  it('a USER gets no clients call (403 for them): client choices come from the figures', async () => {
    const sent = gateway();
    renderPage(<AnalyticsPage />, { path: '/analytics', url: '/analytics', role: 'USER' });
    await screen.findByTestId('total-calls');
    expect(sentTo(sent, '/api/clients/dropdown')).toHaveLength(0);
    expect(
      within(screen.getByTestId('filter-clientId'))
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['All clients', '=SUM(A1), "the" Corp']);
    // Without a range in the address, the 90 days up to today (UTC) are asked for explicitly.
    const query = lastQuery(sent, '/api/dashboards/analytics');
    expect((Date.parse(query.to!) - Date.parse(query.from!)) / 86_400_000).toBe(90);
  });

  it('a period opens its calls: the same filters narrowed to that week, each call linking to its transcript', async () => {
    const sent = gateway();
    const user = userEvent.setup();
    renderPage(<AnalyticsPage />, {
      path: '/analytics',
      url: '/analytics?from=2026-03-04&to=2026-03-20&groupBy=week&tag=billing',
      role: 'CALLER',
    });
    await screen.findByTestId('total-calls');
    // The first week (Monday 2 March) is cut by the range, which starts on the 4th.
    await user.click(
      within(screen.getByTestId('calls-chart')).getByRole('button', { name: 'Open the calls of Mar 2, 2026' }),
    );
    const drawer = await screen.findByTestId('calls-drawer');
    expect(await within(drawer).findByRole('link', { name: 'monday-call.wav' })).toHaveAttribute(
      'href',
      '/transcripts/f1',
    );
    expect(within(drawer).getByTestId('calls-total')).toHaveTextContent('The 1 newest of 3 calls');
    expect(lastQuery(sent, '/api/dashboards/calls')).toEqual({
      from: '2026-03-04',
      to: '2026-03-08',
      tag: 'billing',
      limit: '100',
    });
    await user.click(within(drawer).getByRole('button', { name: 'Close' }));
    // A breakdown row: the whole range, narrowed to that agent.
    await user.click(within(screen.getByTestId('by-agent')).getByRole('button', { name: 'Open the calls of Ann Lee' }));
    await waitFor(() =>
      expect(lastQuery(sent, '/api/dashboards/calls')).toEqual({
        from: '2026-03-04',
        to: '2026-03-20',
        tag: 'billing',
        agentId: ANN,
        limit: '100',
      }),
    );
  });

  it('exports a breakdown as CSV: raw figures, quoted fields, and a formula-looking name made inert', async () => {
    gateway();
    const user = userEvent.setup();
    const created: Blob[] = [];
    URL.createObjectURL = jest.fn((blob: Blob) => {
      created.push(blob);
      return 'blob:csv';
    });
    URL.revokeObjectURL = jest.fn();
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    renderPage(<AnalyticsPage />, {
      path: '/analytics',
      url: '/analytics?from=2026-03-01&to=2026-03-20',
      role: 'ADMIN',
    });
    await screen.findByTestId('total-calls');
    await user.click(screen.getByTestId('by-client-csv'));
    await user.click(screen.getByTestId('by-agent-csv'));
    expect(click).toHaveBeenCalledTimes(2);
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('calls-by-client_2026-03-01_2026-03-20.csv');
    const [clients, agents] = await Promise.all(created.map(readBlob));
    expect(clients).toBe(
      '\uFEFFClient,Calls,Seconds,Last call\r\n"\'=SUM(A1), ""the"" Corp",4,6300,2026-03-17T10:00:00.000Z\r\n',
    );
    expect(agents).toBe(
      '\uFEFFAgent,Calls,Seconds,Talk share,Words per minute\r\nAnn Lee,3,5400,0.55,140\r\nBo Park,1,900,,\r\n',
    );
    click.mockRestore();
  });

  it('charts a scorecard field: the prompt and field go to the query, an option field shows each answer per period', async () => {
    const sent = gateway();
    const user = userEvent.setup();
    renderPage(<AnalyticsPage />, {
      path: '/analytics',
      url: '/analytics?from=2026-03-01&to=2026-03-14',
      role: 'USER',
    });
    await screen.findByTestId('total-calls');
    await waitFor(() => expect(within(screen.getByTestId('scorecard-prompt')).getAllByRole('option')).toHaveLength(2));
    await user.selectOptions(screen.getByTestId('scorecard-prompt'), 'Call scorecard');
    // Only the fields that can be charted: the text field is left out.
    expect(
      within(screen.getByTestId('scorecard-field'))
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Choose a field', 'clarity (average)', 'tone (answers)', 'resolved (rate of yes)']);
    await user.selectOptions(screen.getByTestId('scorecard-field'), 'tone');
    expect((await screen.findByTestId('scorecard-chart')).querySelector('figcaption')).toHaveTextContent(
      'Answers to tone',
    );
    expect(lastQuery(sent, '/api/dashboards/scorecards')).toEqual({
      from: '2026-03-01',
      to: '2026-03-14',
      groupBy: 'week',
      promptId: PROMPT,
      field: 'tone',
    });
    expect(screen.getAllByTestId('scorecard-chart-row').map((row) => row.textContent)).toEqual([
      'Mar 2, 202621',
      'Mar 9, 202600',
    ]);
  });

  it('a HOST_ADMIN picks the company first; its id goes with every call', async () => {
    const sent = gateway();
    const user = userEvent.setup();
    renderPage(<AnalyticsPage />, {
      path: '/analytics',
      url: '/analytics?from=2026-03-01&to=2026-03-20',
      role: 'HOST_ADMIN',
      companyId: null,
    });
    expect(await screen.findByTestId('pick-company-first')).toBeInTheDocument();
    expect(sentTo(sent, '/api/dashboards/analytics')).toHaveLength(0);
    await waitFor(() => expect(within(screen.getByTestId('dashboard-company')).getAllByRole('option')).toHaveLength(3));
    await user.selectOptions(screen.getByTestId('dashboard-company'), 'Zed');
    await screen.findByTestId('total-calls');
    expect(lastQuery(sent, '/api/dashboards/analytics').companyId).toBe(OTHER);
    expect(lastQuery(sent, '/api/prompts/available').companyId).toBe(OTHER);
    expect(lastQuery(sent, '/api/tags').companyId).toBe(OTHER);
  });

  it('says when the figures cannot be loaded, and when there are no calls', async () => {
    gateway((call) =>
      call.path === '/api/dashboards/analytics' ? json({ message: 'Analytics is resting' }, 503) : undefined,
    );
    const first = renderPage(<AnalyticsPage />, { path: '/analytics', url: '/analytics', role: 'ADMIN' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Analytics is resting');
    first.unmount();
    gateway((call) =>
      call.path === '/api/dashboards/analytics'
        ? json({
            ...analytics,
            calls: [{ period: '2026-03-02', count: 0, seconds: 0 }],
            byAgent: [],
            byClient: [],
            byTag: [],
          })
        : undefined,
    );
    renderPage(<AnalyticsPage />, { path: '/analytics', url: '/analytics', role: 'ADMIN' });
    expect(await screen.findByTestId('calls-chart-empty')).toHaveTextContent('No calls in this period');
    expect(screen.getByTestId('by-agent-csv')).toBeDisabled();
  });
});
