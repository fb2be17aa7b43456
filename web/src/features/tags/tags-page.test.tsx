/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// /tags with the app's store and RTK Query API; only the network is faked.
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeGateway, json, renderPage } from '../../../test/fake-gateway';
import TagsPage from './tags-page';

function gateway() {
  let tags = [
    { name: 'billing', count: 3 },
    { name: 'urgent', count: 1 },
  ];
  return fakeGateway((call) => {
    const named = /^\/api\/tags\/(.+)$/.exec(call.path);
    if (named && call.method === 'PUT') {
      const from = decodeURIComponent(named[1]!);
      const to = (call.body as { name: string }).name;
      const moved = tags.find((tag) => tag.name === from)?.count ?? 0;
      tags = tags.filter((tag) => tag.name !== from);
      const existing = tags.find((tag) => tag.name === to);
      if (existing) existing.count += moved;
      else tags.push({ name: to, count: moved });
      return json(tags);
    }
    if (named && call.method === 'DELETE') {
      tags = tags.filter((tag) => tag.name !== decodeURIComponent(named[1]!));
      return json(tags);
    }
    if (call.path === '/api/tags') return json(tags);
    return undefined;
  });
}

afterEach(() => localStorage.clear());

describe('tags page', () => {
  it('lists the tags with counts, each opening the list filtered by it; a USER cannot change them', async () => {
    gateway();
    renderPage(<TagsPage />, { path: '/tags', url: '/tags', role: 'USER' });
    expect(await screen.findByRole('link', { name: 'billing' })).toHaveAttribute('href', '/transcripts?tag=billing');
    expect(screen.getAllByTestId('tag-count').map((cell) => cell.textContent)).toEqual(['3', '1']);
    expect(screen.getByTestId('tags-read-only')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Rename|Delete/ })).toBeNull();
  });

  it('an ADMIN renames a tag, merges it into an existing one (told before saving), and deletes one after confirming', async () => {
    const calls = gateway();
    const user = userEvent.setup();
    renderPage(<TagsPage />, { path: '/tags', url: '/tags', role: 'ADMIN' });
    await user.click(await screen.findByRole('button', { name: 'Rename urgent' }));
    const input = screen.getByTestId('rename-tag-input');
    await user.clear(input);
    await user.type(input, 'Escalated{Enter}');
    await screen.findByRole('link', { name: 'escalated' });
    expect(calls.find((call) => call.method === 'PUT')).toMatchObject({
      path: '/api/tags/urgent',
      body: { name: 'escalated' },
    });

    await user.click(screen.getByRole('button', { name: 'Rename escalated' }));
    await user.clear(screen.getByTestId('rename-tag-input'));
    await user.type(screen.getByTestId('rename-tag-input'), 'billing');
    expect(screen.getByText('billing already exists: the two tags will become one.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'escalated' })).toBeNull());
    expect(screen.getAllByTestId('tag-count').map((cell) => cell.textContent)).toEqual(['4']);
    expect(await screen.findByText('Tags merged')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Delete billing' }));
    const dialog = screen.getByRole('dialog');
    expect(dialog).toHaveTextContent('Delete the tag billing? It is taken off 4 recordings; the recordings stay.');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await screen.findByText('No tags yet. Add them to recordings in the transcripts list.');
    expect(calls.find((call) => call.method === 'DELETE')?.path).toBe('/api/tags/billing');
  });
});
