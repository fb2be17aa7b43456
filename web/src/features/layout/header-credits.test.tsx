/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// The header's bell and remaining cap with the app's store and RTK Query API; only `fetch` is faked.
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { InboxItemDto, MyCreditsDto } from '@earshot/contracts';
import { fakeGateway, json, renderPage } from '../../../test/fake-gateway';
import HeaderCredits from './header-credits';

const note = (n: number, read: boolean, link: string | null = null): InboxItemDto => ({
  _id: `n-00000000-0000-4000-8000-00000000000${n}`,
  kind: n % 2 ? 'cap_threshold' : 'email',
  title: `Alert ${n}`,
  body: `You have used ${n * 40}% of your monthly credits`,
  link,
  read,
  createdAt: '2026-03-02T10:00:00.000Z',
});
const idOf = (n: number) => `n-00000000-0000-4000-8000-00000000000${n}`;

/** The inbox as the messaging service answers it: `limit` newest first, the unread count of all. */
function gateway(me: MyCreditsDto, notes: InboxItemDto[]) {
  return fakeGateway((call) => {
    const unread = () => notes.filter((n) => !n.read).length;
    if (call.path === '/api/credits/me') return json(me);
    if (call.path === '/api/inbox' && call.method === 'GET')
      return json({ items: notes.slice(0, Number(call.query.get('limit') ?? 30)), nextCursor: null, unread: unread() });
    if (call.path === '/api/inbox/read-all') {
      // As the messaging service does: notifications only, e-mails stay as they are.
      for (const n of notes) if (n.kind !== 'email') n.read = true;
      return json({ unread: unread() });
    }
    const one = /^\/api\/inbox\/(n-[0-9a-f-]+)$/.exec(call.path);
    if (one && call.method === 'PUT') {
      notes.find((n) => n._id === one[1])!.read = (call.body as { read: boolean }).read;
      return json({ unread: unread() });
    }
    return undefined;
  });
}

afterEach(() => localStorage.clear());

describe('header credits', () => {
  it('shows the unread count, and opening a notification marks it read and follows its link', async () => {
    const sent = gateway({ monthlyCap: null, spentThisMonth: 0, remaining: null, companyBalance: null }, [
      note(2, false, '/usage'),
      note(1, false),
      note(0, true),
    ]);
    const user = userEvent.setup();
    renderPage(<HeaderCredits />, { path: '/chat', url: '/chat', role: 'USER' });
    expect(await screen.findByTestId('notifications-unread')).toHaveTextContent('2');
    expect(screen.getByRole('button', { name: 'Notifications, 2 unread' })).toBeInTheDocument();
    // No cap: nothing about it.
    expect(screen.queryByTestId('cap-left')).toBeNull();
    await user.click(screen.getByTestId('notifications-bell'));
    const menu = screen.getByRole('menu');
    const items = within(menu).getAllByTestId('notification');
    expect(items.map((item) => item.textContent?.slice(0, 7))).toEqual(['Alert 2', 'Alert 1', 'Alert 0']);
    expect(items.map((item) => within(item).queryByRole('img', { name: 'Unread' }) !== null)).toEqual([
      true,
      true,
      false,
    ]);
    await user.click(within(menu).getAllByTestId('notification')[0]!);
    expect(await screen.findByTestId('elsewhere')).toHaveAttribute('data-path', '/usage');
    expect(
      sent.some(
        (call) =>
          call.path === `/api/inbox/${idOf(2)}` && call.method === 'PUT' && (call.body as { read: boolean }).read,
      ),
    ).toBe(true);
  });

  it.each(['//evil.example/phish', '/\\evil.example/phish', 'https://evil.example/phish'])(
    'marks a notification read but does not follow the link %s out of the app',
    async (link) => {
      const sent = gateway({ monthlyCap: null, spentThisMonth: 0, remaining: null, companyBalance: null }, [
        note(1, false, link),
      ]);
      const user = userEvent.setup();
      renderPage(<HeaderCredits />, { path: '/chat', url: '/chat', role: 'USER' });
      await screen.findByTestId('notifications-unread');
      await user.click(screen.getByTestId('notifications-bell'));
      await user.click(within(screen.getByRole('menu')).getByTestId('notification'));
      await waitFor(() =>
        expect(sent.some((call) => call.path === `/api/inbox/${idOf(1)}` && call.method === 'PUT')).toBe(true),
      );
      expect(screen.queryByTestId('elsewhere')).toBeNull();
      expect(screen.getByTestId('notifications-bell')).toBeInTheDocument();
    },
  );

  it('asks for the latest five, shows them under the unread count of the whole inbox, and See all opens /inbox', async () => {
    const notes = [9, 8, 7, 6, 5, 4, 3].map((n) => note(n, n !== 8));
    notes.push(...[2, 1].map((n) => note(n, false)));
    const sent = gateway({ monthlyCap: null, spentThisMonth: 0, remaining: null, companyBalance: null }, notes);
    const user = userEvent.setup();
    renderPage(<HeaderCredits />, { path: '/chat', url: '/chat', role: 'CALLER' });
    expect(await screen.findByTestId('notifications-unread')).toHaveTextContent('3');
    expect(sent.filter((call) => call.path === '/api/inbox').map((call) => call.query.get('limit'))).toEqual(['5']);
    await user.click(screen.getByTestId('notifications-bell'));
    const menu = screen.getByRole('menu');
    expect(
      within(menu)
        .getAllByTestId('notification')
        .map((item) => item.textContent?.slice(0, 7)),
    ).toEqual(['Alert 9', 'Alert 8', 'Alert 7', 'Alert 6', 'Alert 5']);
    expect(
      within(menu)
        .getAllByTestId('notification')
        .map((item) => within(item).queryByRole('img', { name: 'Unread' }) !== null),
    ).toEqual([false, true, false, false, false]);
    await user.click(within(menu).getByTestId('notifications-see-all'));
    expect(await screen.findByTestId('elsewhere')).toHaveAttribute('data-path', '/inbox');
    expect(sent.some((call) => call.method === 'PUT')).toBe(false);
  });

  it('marks all notifications as read; an unread e-mail keeps the count up until it is opened', async () => {
    const sent = gateway({ monthlyCap: null, spentThisMonth: 0, remaining: null, companyBalance: null }, [
      note(3, false),
      note(2, false),
      note(1, false),
    ]);
    const user = userEvent.setup();
    renderPage(<HeaderCredits />, { path: '/chat', url: '/chat', role: 'USER' });
    expect(await screen.findByTestId('notifications-unread')).toHaveTextContent('3');
    await user.click(screen.getByTestId('notifications-bell'));
    await user.click(screen.getByRole('menuitem', { name: 'Mark all as read' }));
    await waitFor(() => expect(screen.getByTestId('notifications-unread')).toHaveTextContent('1'));
    expect(sent.some((call) => call.path === '/api/inbox/read-all')).toBe(true);
    await user.click(screen.getByTestId('notifications-bell'));
    await user.click(within(screen.getByRole('menu')).getAllByTestId('notification')[1]!);
    await waitFor(() => expect(screen.queryByTestId('notifications-unread')).toBeNull());
    await user.click(screen.getByTestId('notifications-bell'));
    expect(screen.queryByTestId('notifications-read-all')).toBeNull();
  });

  it('shows what is left of a monthly cap, never below zero', async () => {
    gateway({ monthlyCap: 100, spentThisMonth: 104.5, remaining: -4.5, companyBalance: null }, []);
    renderPage(<HeaderCredits />, { path: '/chat', url: '/chat', role: 'USER' });
    const cap = await screen.findByTestId('cap-left');
    expect(cap).toHaveTextContent('0 credits left');
    expect(cap).toHaveAttribute('title', 'Your monthly cap: 0 of 100 credits left this month');
    expect(cap).toHaveAttribute('href', '/usage');
    expect(screen.getByRole('button', { name: 'Notifications' })).toBeInTheDocument();
  });
});
