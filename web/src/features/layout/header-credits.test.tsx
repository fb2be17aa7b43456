/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// The header's bell and remaining cap with the app's store and RTK Query API; only `fetch` is faked.
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { MyCreditsDto, NotificationDto } from '@earshot/contracts';
import { fakeGateway, json, renderPage } from '../../../test/fake-gateway';
import HeaderCredits from './header-credits';

const note = (n: number, readAt: string | null, link: string | null = null): NotificationDto => ({
  _id: `n${n}`, kind: 'cap_threshold', title: `Alert ${n}`, body: `You have used ${n * 40}% of your monthly credits`, link, readAt, createdAt: '2026-03-02T10:00:00.000Z',
});

function gateway(me: MyCreditsDto, notes: NotificationDto[]) {
  return fakeGateway((call) => {
    const unread = () => notes.filter((n) => !n.readAt).length;
    if (call.path === '/api/credits/me') return json(me);
    if (call.path === '/api/notifications') return json({ items: notes, unread: unread(), page: 1, pageSize: 10, total: notes.length, totalPages: 1 });
    if (call.path === '/api/notifications/read-all') {
      for (const n of notes) n.readAt = '2026-03-03T00:00:00.000Z';
      return json({ unread: 0 });
    }
    const one = /^\/api\/notifications\/(n\d)\/read$/.exec(call.path);
    if (one) {
      notes.find((n) => n._id === one[1])!.readAt = '2026-03-03T00:00:00.000Z';
      return json({ unread: unread() });
    }
    return undefined;
  });
}

afterEach(() => localStorage.clear());

describe('header credits', () => {
  it('shows the unread count, and opening a notification marks it read and follows its link', async () => {
    const sent = gateway({ monthlyCap: null, spentThisMonth: 0, remaining: null, companyBalance: null }, [note(2, null, '/usage'), note(1, null), note(0, '2026-03-01T00:00:00.000Z')]);
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
    expect(items.map((item) => within(item).queryByRole('img', { name: 'Unread' }) !== null)).toEqual([true, true, false]);
    await user.click(within(menu).getAllByTestId('notification')[0]!);
    expect(await screen.findByTestId('elsewhere')).toHaveAttribute('data-path', '/usage');
    expect(sent.some((call) => call.path === '/api/notifications/n2/read' && call.method === 'POST')).toBe(true);
  });

  it.each(['//evil.example/phish', '/\\evil.example/phish', 'https://evil.example/phish'])('marks a notification read but does not follow the link %s out of the app', async (link) => {
    const sent = gateway({ monthlyCap: null, spentThisMonth: 0, remaining: null, companyBalance: null }, [note(1, null, link)]);
    const user = userEvent.setup();
    renderPage(<HeaderCredits />, { path: '/chat', url: '/chat', role: 'USER' });
    await screen.findByTestId('notifications-unread');
    await user.click(screen.getByTestId('notifications-bell'));
    await user.click(within(screen.getByRole('menu')).getByTestId('notification'));
    await waitFor(() => expect(sent.some((call) => call.path === '/api/notifications/n1/read' && call.method === 'POST')).toBe(true));
    expect(screen.queryByTestId('elsewhere')).toBeNull();
    expect(screen.getByTestId('notifications-bell')).toBeInTheDocument();
  });

  it('marks all as read', async () => {
    const sent = gateway({ monthlyCap: null, spentThisMonth: 0, remaining: null, companyBalance: null }, [note(2, null), note(1, null)]);
    const user = userEvent.setup();
    renderPage(<HeaderCredits />, { path: '/chat', url: '/chat', role: 'USER' });
    await screen.findByTestId('notifications-unread');
    await user.click(screen.getByTestId('notifications-bell'));
    await user.click(screen.getByTestId('notifications-read-all'));
    await waitFor(() => expect(screen.queryByTestId('notifications-unread')).toBeNull());
    expect(sent.some((call) => call.path === '/api/notifications/read-all')).toBe(true);
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
