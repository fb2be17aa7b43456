/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// The inbox and one message with the app's store and RTK Query API; only `fetch` is faked, by a
// stand-in of the messaging service that keeps read flags, filters by kind and pages by cursor.
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { InboxItemDto, InboxKind } from '@earshot/contracts';
import { fakeGateway, json, renderPage } from '../../../test/fake-gateway';
import InboxDetailsPage from './inbox-details-page';
import InboxPage from './inbox-page';

const id = (n: number) => `${n % 3 ? 'n' : 'm'}-00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const message = (n: number, kind: InboxKind, read: boolean, extra: Partial<InboxItemDto> = {}): InboxItemDto => ({
  _id: id(n),
  kind,
  title: `Message ${n}`,
  body: `Body ${n}`,
  link: null,
  read,
  createdAt: new Date(Date.UTC(2026, 2, 1, 9, n)).toISOString(),
  ...extra,
});

/** Newest first, `limit` (default 30) a page; the cursor is the index to go on from. */
function messaging(messages: InboxItemDto[]) {
  return fakeGateway((call) => {
    if (call.path === '/api/inbox' && call.method === 'GET') {
      const kind = call.query.get('kind');
      const all = messages
        .filter((item) => !kind || item.kind === kind)
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
      const start = Number(call.query.get('cursor') ?? 0);
      const limit = Number(call.query.get('limit') ?? 30);
      const end = start + limit;
      return json({
        items: all.slice(start, end),
        nextCursor: end < all.length ? String(end) : null,
        unread: messages.filter((item) => !item.read).length,
      });
    }
    const one = /^\/api\/inbox\/([nm]-[0-9a-f-]{36})$/.exec(call.path);
    const item = one ? messages.find((candidate) => candidate._id === one[1]) : undefined;
    if (one && !item) return json({ message: 'Message not found' }, 404);
    if (item && call.method === 'GET') return json(item);
    if (item && call.method === 'PUT') {
      item.read = (call.body as { read: boolean }).read;
      return json({ unread: messages.filter((candidate) => !candidate.read).length });
    }
    return undefined;
  });
}

const rows = () =>
  screen
    .getAllByTestId('inbox-item')
    .map(
      (row) =>
        `${within(row).getByTestId('inbox-item-link').textContent}${row.getAttribute('data-read') === 'true' ? '' : '*'}`,
    );

afterEach(() => localStorage.clear());

describe('inbox', () => {
  it('lists messages newest first, unread in bold with a marker, each with its kind', async () => {
    messaging([message(1, 'task_assigned', false), message(2, 'email', true), message(3, 'credits_threshold', false)]);
    renderPage(<InboxPage />, { path: '/inbox', url: '/inbox', role: 'USER' });
    await screen.findAllByTestId('inbox-item');
    expect(rows()).toEqual(['Message 3*', 'Message 2', 'Message 1*']);
    expect(screen.getByTestId('inbox-unread')).toHaveTextContent('2 unread');
    const [newest, email] = screen.getAllByTestId('inbox-item');
    expect(within(newest!).getByTestId('inbox-item-link')).toHaveClass('font-semibold');
    expect(within(newest!).getByRole('img', { name: 'Unread' })).toBeInTheDocument();
    expect(within(email!).getByTestId('inbox-item-link')).not.toHaveClass('font-semibold');
    expect(newest).toHaveTextContent('Credits alert');
    expect(email).toHaveTextContent('E-mail');
    expect(within(email!).getByTestId('inbox-item-link')).toHaveAttribute('href', `/inbox-details?id=${id(2)}`);
  });

  it('marks a message read and unread again (PUT {read}), and the count follows', async () => {
    const sent = messaging([message(1, 'task_due', false), message(2, 'email', true)]);
    const user = userEvent.setup();
    renderPage(<InboxPage />, { path: '/inbox', url: '/inbox', role: 'CALLER' });
    await user.click(await screen.findByRole('button', { name: /^Mark as read\W+Message 1$/ }));
    await waitFor(() => expect(rows()).toEqual(['Message 2', 'Message 1']));
    expect(screen.getByTestId('inbox-unread')).toHaveTextContent('0 unread');
    await user.click(screen.getByRole('button', { name: /^Mark as unread\W+Message 2$/ }));
    await waitFor(() => expect(rows()).toEqual(['Message 2*', 'Message 1']));
    expect(sent.filter((call) => call.method === 'PUT').map((call) => [call.path, call.body])).toEqual([
      [`/api/inbox/${id(1)}`, { read: true }],
      [`/api/inbox/${id(2)}`, { read: false }],
    ]);
  });

  it('filters by kind (asking the server) and says when a kind has nothing', async () => {
    const sent = messaging([message(1, 'task_assigned', false), message(2, 'email', true), message(4, 'email', false)]);
    const user = userEvent.setup();
    renderPage(<InboxPage />, { path: '/inbox', url: '/inbox', role: 'ADMIN' });
    await screen.findAllByTestId('inbox-item');
    await user.selectOptions(screen.getByTestId('inbox-kind'), 'E-mail');
    await waitFor(() => expect(rows()).toEqual(['Message 4*', 'Message 2']));
    expect(sent.filter((call) => call.path === '/api/inbox').map((call) => call.query.get('kind'))).toEqual([
      null,
      'email',
    ]);
    await user.selectOptions(screen.getByTestId('inbox-kind'), 'Analysis finished');
    expect(await screen.findByTestId('inbox-empty')).toHaveTextContent('No messages of this kind.');
  });

  it('loads more with the server’s cursor, after the messages already shown', async () => {
    const many = Array.from({ length: 35 }, (_, i) => message(i + 1, 'analysis_finished', true));
    const sent = messaging(many);
    const user = userEvent.setup();
    renderPage(<InboxPage />, { path: '/inbox', url: '/inbox', role: 'HOST_ADMIN' });
    await screen.findAllByTestId('inbox-item');
    expect(rows()).toHaveLength(30);
    await user.click(screen.getByTestId('inbox-more'));
    await waitFor(() => expect(rows()).toHaveLength(35));
    expect(rows().slice(28)).toEqual([
      'Message 7',
      'Message 6',
      'Message 5',
      'Message 4',
      'Message 3',
      'Message 2',
      'Message 1',
    ]);
    expect(screen.queryByTestId('inbox-more')).toBeNull();
    expect(sent.filter((call) => call.path === '/api/inbox').map((call) => call.query.get('cursor'))).toEqual([
      null,
      '30',
    ]);
  });

  it('says when there is nothing, and shows an error with a retry', async () => {
    let fail = true;
    fakeGateway((call) =>
      call.path === '/api/inbox'
        ? fail
          ? json({ message: 'Service unavailable' }, 503)
          : json({ items: [], nextCursor: null, unread: 0 })
        : undefined,
    );
    const user = userEvent.setup();
    renderPage(<InboxPage />, { path: '/inbox', url: '/inbox', role: 'USER' });
    expect(await screen.findByTestId('inbox-error')).toHaveTextContent('Service unavailable');
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('inbox-empty')).toHaveTextContent('No messages yet.');
  });
});

describe('inbox details', () => {
  it('shows the message with its body as text, marks it read and opens its link', async () => {
    const body = 'Hello <b>Ada</b>,\n<script>alert(1)</script>\nsecond line';
    const sent = messaging([message(1, 'task_assigned', false, { body, link: '/task-list?task=t1' })]);
    const user = userEvent.setup();
    renderPage(<InboxDetailsPage />, { path: '/inbox-details', url: `/inbox-details?id=${id(1)}`, role: 'USER' });
    expect(await screen.findByTestId('inbox-message-title')).toHaveTextContent('Message 1');
    const shown = screen.getByTestId('inbox-message-body');
    expect(shown.textContent).toBe(body);
    expect(shown.querySelector('b, script')).toBeNull();
    await waitFor(() =>
      expect(sent.filter((call) => call.method === 'PUT').map((call) => [call.path, call.body])).toEqual([
        [`/api/inbox/${id(1)}`, { read: true }],
      ]),
    );
    await user.click(screen.getByTestId('inbox-message-link'));
    expect(await screen.findByTestId('elsewhere')).toHaveAttribute('data-path', '/task-list');
  });

  it('offers no button for a link out of the app, nor marks a read message again', async () => {
    const sent = messaging([message(2, 'email', true, { link: '//evil.example/x' })]);
    renderPage(<InboxDetailsPage />, { path: '/inbox-details', url: `/inbox-details?id=${id(2)}`, role: 'USER' });
    await screen.findByTestId('inbox-message');
    expect(screen.queryByTestId('inbox-message-link')).toBeNull();
    expect(sent.some((call) => call.method === 'PUT')).toBe(false);
  });

  it('says so for a message that is not there, and for no id at all', async () => {
    const sent = messaging([]);
    const first = renderPage(<InboxDetailsPage />, {
      path: '/inbox-details',
      url: `/inbox-details?id=${id(5)}`,
      role: 'USER',
    });
    expect(await screen.findByTestId('inbox-details-missing')).toHaveTextContent(
      'This message does not exist, or is not yours.',
    );
    first.unmount();
    renderPage(<InboxDetailsPage />, { path: '/inbox-details', url: '/inbox-details?id=../../etc', role: 'USER' });
    expect(screen.getByTestId('inbox-details-missing')).toHaveTextContent('No message was chosen.');
    expect(sent.map((call) => call.path)).toEqual([`/api/inbox/${id(5)}`]);
  });
});

describe('one item per event', () => {
  it('a notification whose event was mailed says so and opens that e-mail, which is marked read too', async () => {
    const mail = message(3, 'email', false, { title: 'New task: Call Acme (e-mail)', body: 'Hello Ada' });
    const sent = messaging([message(1, 'task_assigned', false, { emailId: mail._id }), mail]);
    const user = userEvent.setup();
    renderPage(<InboxDetailsPage />, { path: '/inbox-details', url: `/inbox-details?id=${id(1)}`, role: 'USER' });
    expect(await screen.findByTestId('inbox-message-email')).toHaveTextContent('An e-mail was sent too.');
    await user.click(screen.getByRole('link', { name: 'Open the e-mail' }));
    // The notification stays on screen until the e-mail's answer arrives: wait for the new title.
    await waitFor(() =>
      expect(screen.getByTestId('inbox-message-title')).toHaveTextContent('New task: Call Acme (e-mail)'),
    );
    expect(screen.getByTestId('inbox-message-body')).toHaveTextContent('Hello Ada');
    // The e-mail itself offers no further e-mail.
    expect(screen.queryByTestId('inbox-message-email')).toBeNull();
    await waitFor(() =>
      expect(sent.filter((call) => call.method === 'PUT').map((call) => call.path)).toEqual([
        `/api/inbox/${id(1)}`,
        `/api/inbox/${id(3)}`,
      ]),
    );
  });

  it('says nothing of an e-mail when none went with the notification', async () => {
    messaging([message(1, 'mention', true)]);
    renderPage(<InboxDetailsPage />, { path: '/inbox-details', url: `/inbox-details?id=${id(1)}`, role: 'USER' });
    await screen.findByTestId('inbox-message');
    expect(screen.queryByTestId('inbox-message-email')).toBeNull();
  });
});

describe.each(['en', 'fr', 'et', 'lv'] as const)('inbox dates in %s', (language) => {
  const at = message(1, 'task_due', true).createdAt;

  it('the list writes each message’s time as Intl does in the language', async () => {
    messaging([message(1, 'task_due', true)]);
    renderPage(<InboxPage />, { path: '/inbox', url: '/inbox', role: 'USER', language });
    const [row] = await screen.findAllByTestId('inbox-item');
    expect(row!.querySelector('time')).toHaveTextContent(
      new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(at)),
    );
    expect(row!.querySelector('time')).toHaveAttribute('dateTime', at);
  });

  it('one message writes its time in full as Intl does in the language', async () => {
    messaging([message(1, 'task_due', true)]);
    renderPage(<InboxDetailsPage />, {
      path: '/inbox-details',
      url: `/inbox-details?id=${id(1)}`,
      role: 'USER',
      language,
    });
    const shown = await screen.findByTestId('inbox-message');
    expect(shown.querySelector('time')!.textContent).toBe(
      new Intl.DateTimeFormat(language, { dateStyle: 'full', timeStyle: 'short' }).format(new Date(at)),
    );
  });
});
