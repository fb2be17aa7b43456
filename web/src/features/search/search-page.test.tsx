/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// /search with the app's store and RTK Query API; only the network is faked.
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeGateway, json, renderPage, type Call } from '../../../test/fake-gateway';
import SearchPage from './search-page';

const hit = (segmentId: string, start: number, snippet: string) => ({
  segmentId,
  speakerName: 'Ann Lee',
  start,
  snippet,
});
const PAGE_ONE = {
  items: [
    {
      fileId: 'f1',
      originalName: 'call-1.wav',
      uploadDate: '2026-01-03T10:00:00.000Z',
      hits: [
        hit('s1', 75.6, 'about the <mark>invoice</mark> &lt;img src=x&gt;'),
        hit('s2', 3, 'second <mark>invoice</mark>'),
      ],
    },
  ],
  nextCursor: 'CURSOR_1',
};
const PAGE_TWO = {
  items: [
    {
      fileId: 'f2',
      originalName: 'call-2.wav',
      uploadDate: '2026-01-02T10:00:00.000Z',
      hits: [hit('s9', 12, 'my <mark>invoice</mark>')],
    },
  ],
  nextCursor: null,
};

function gateway() {
  return fakeGateway((call) => {
    if (call.path === '/api/search') {
      if (call.query.get('q') === 'nothing') return json({ items: [], nextCursor: null });
      return json(call.query.get('cursor') === 'CURSOR_1' ? PAGE_TWO : PAGE_ONE);
    }
    if (call.path === '/api/tags') return json([{ name: 'billing', count: 2 }]);
    if (call.path === '/api/clients/dropdown') return json([]);
    return undefined;
  });
}

const searches = (calls: Call[]) => calls.filter((call) => call.path === '/api/search');

afterEach(() => localStorage.clear());

describe('search page', () => {
  it('asks nothing until words are given, then shows recordings with their passages opening the viewer at the moment', async () => {
    const calls = gateway();
    const user = userEvent.setup();
    renderPage(<SearchPage />, { path: '/search', url: '/search?tag=billing', role: 'USER' });
    expect(await screen.findByTestId('search-start')).toBeInTheDocument();
    expect(searches(calls)).toHaveLength(0);
    await user.type(screen.getByRole('searchbox', { name: 'Search every transcript' }), '"the invoice"{Enter}');
    const result = await screen.findByTestId('search-result');
    expect(Object.fromEntries(searches(calls)[0]!.query)).toEqual({
      q: '"the invoice"',
      sort: 'newest',
      tag: 'billing',
      limit: '20',
    });
    expect(within(result).getByRole('link', { name: 'call-1.wav' })).toHaveAttribute('href', '/transcripts/f1');
    const hits = within(result).getAllByTestId('search-hit');
    expect(hits[0]).toHaveAttribute('href', '/transcripts/f1?t=75.6');
    expect(within(hits[0]!).getByTestId('hit-meta')).toHaveTextContent('Ann Lee at 1:15');
    expect(within(hits[0]!).getByTestId('hit-snippet')).toHaveTextContent('about the invoice <img src=x>');
    expect(hits[0]!.querySelector('img')).toBeNull();
    expect(hits[0]!.querySelector('mark')).toHaveTextContent('invoice');
  });

  it('loads the next page with the cursor, and orders by best match when asked', async () => {
    const calls = gateway();
    const user = userEvent.setup();
    renderPage(<SearchPage />, { path: '/search', url: '/search?q=invoice', role: 'USER' });
    await screen.findByTestId('search-result');
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(screen.getAllByTestId('search-result')).toHaveLength(2));
    expect(searches(calls).at(-1)?.query.get('cursor')).toBe('CURSOR_1');
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    await user.selectOptions(screen.getByTestId('search-sort'), 'best');
    await waitFor(() => expect(searches(calls).at(-1)?.query.get('sort')).toBe('best'));
  });

  it('says so when nothing matches, and a USER’s search never asks for clients', async () => {
    const calls = gateway();
    renderPage(<SearchPage />, { path: '/search', url: '/search?q=nothing', role: 'USER' });
    expect(await screen.findByTestId('search-empty')).toHaveTextContent('No results found');
    expect(calls.map((call) => call.path)).not.toContain('/api/clients/dropdown');
  });
});
