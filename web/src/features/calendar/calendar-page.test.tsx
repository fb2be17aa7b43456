/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// The calendar with the app's store and RTK Query API; only `fetch` is faked. What is asked for
// follows the view, and a task is moved by drag and drop or by its Move control: PUT {dueDate},
// shown at once, and back where it was when the server refuses.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CalendarDto } from '@earshot/contracts';
import type { Role } from '@earshot/contracts/constants';
import { fakeGateway, json, type Answer } from '../../../test/fake-gateway';
import { renderPage } from '../../../test/fake-gateway';
import CalendarPage from './calendar-page';

const data = (): CalendarDto => ({
  recordings: [{ fileId: 'f1', originalName: 'Call with Acme.mp3', date: new Date(2026, 2, 10, 14, 5).toISOString() }],
  tasks: [
    {
      _id: 't-mine',
      title: 'Send the offer',
      due: '2026-03-12',
      status: 'todo',
      assigneeId: 'me',
      createdBy: 'someone',
    },
    {
      _id: 't-theirs',
      title: 'Call back Bob',
      due: '2026-03-12',
      status: 'in_progress',
      assigneeId: 'someone',
      createdBy: 'someone',
    },
  ],
});

function gateway(put: (body: unknown) => Answer = (body) => json({ ...(body as object) })) {
  const calendar = data();
  return fakeGateway((call) => {
    if (call.path === '/api/calendar') return json(calendar);
    if (call.method === 'PUT' && call.path.startsWith('/api/tasks/')) return put(call.body);
    return undefined;
  });
}

const open = (url: string, role: Role = 'USER') => renderPage(<CalendarPage />, { path: '/calendar', url, role });
const day = (key: string) => document.querySelector(`[data-day="${key}"]`) as HTMLElement;
const tasksOn = (key: string) =>
  within(day(key))
    .queryAllByTestId('calendar-task')
    .map((task) => task.getAttribute('data-task-id'));

afterEach(() => localStorage.clear());

describe('calendar page', () => {
  it('asks for the visible range only, for each view and step', async () => {
    const sent = gateway();
    const user = userEvent.setup();
    open('/calendar?view=month&date=2026-03-15');
    await screen.findByText('Call with Acme.mp3');
    const ranges = () =>
      sent
        .filter((call) => call.path === '/api/calendar')
        .map((call) => `${call.query.get('from')}..${call.query.get('to')}`);
    expect(ranges()).toEqual(['2026-02-22..2026-04-06']);
    expect(screen.getByTestId('calendar-title')).toHaveTextContent('March 2026');
    await user.click(screen.getByTestId('calendar-view-week'));
    await waitFor(() => expect(ranges()).toContain('2026-03-08..2026-03-16'));
    await user.click(screen.getByTestId('calendar-next'));
    await waitFor(() => expect(ranges()).toContain('2026-03-15..2026-03-23'));
    await user.click(screen.getByTestId('calendar-view-day'));
    await waitFor(() => expect(ranges()).toContain('2026-03-21..2026-03-23'));
    expect(ranges()).toHaveLength(4);
  });

  it('places recordings and tasks on their day, linking to the recording and to the task', async () => {
    gateway();
    open('/calendar?view=month&date=2026-03-15');
    const recording = await screen.findByRole('link', { name: /Call with Acme\.mp3/ });
    expect(recording).toHaveAttribute('href', '/transcripts/f1');
    expect(day('2026-03-10')).toContainElement(recording);
    expect(tasksOn('2026-03-12')).toEqual(['t-mine', 't-theirs']);
    expect(screen.getByRole('link', { name: /Send the offer/ })).toHaveAttribute('href', '/task-list?task=t-mine');
    expect(screen.getByRole('link', { name: /Call back Bob/ })).toHaveAccessibleName(
      'Task, In progress: Call back Bob',
    );
  });

  it('lets a USER move only the tasks assigned to or made by them; an ADMIN moves any', async () => {
    gateway();
    const first = open('/calendar?view=week&date=2026-03-12', 'USER');
    await screen.findByText('Send the offer');
    expect(screen.getAllByTestId('calendar-task').map((task) => task.getAttribute('data-movable'))).toEqual([
      'true',
      'false',
    ]);
    expect(
      screen.getAllByRole('button', { name: /^Move / }).map((button) => button.getAttribute('aria-label')),
    ).toEqual(['Move Send the offer to another date']);
    first.unmount();
    gateway();
    open('/calendar?view=week&date=2026-03-12', 'ADMIN');
    await screen.findByText('Send the offer');
    expect(screen.getAllByTestId('calendar-task').map((task) => task.getAttribute('data-movable'))).toEqual([
      'true',
      'true',
    ]);
  });

  it('moves a task with the keyboard control: PUT {dueDate}, shown at once', async () => {
    const sent = gateway();
    const user = userEvent.setup();
    open('/calendar?view=week&date=2026-03-12');
    await user.click(await screen.findByRole('button', { name: 'Move Send the offer to another date' }));
    const dialog = screen.getByTestId('calendar-move-dialog');
    fireEvent.change(within(dialog).getByLabelText('Due date'), { target: { value: '2026-03-14' } });
    await user.click(within(dialog).getByRole('button', { name: 'Move' }));
    await waitFor(() => expect(tasksOn('2026-03-14')).toEqual(['t-mine']));
    expect(tasksOn('2026-03-12')).toEqual(['t-theirs']);
    expect(sent.filter((call) => call.method === 'PUT').map((call) => [call.path, call.body])).toEqual([
      ['/api/tasks/t-mine', { dueDate: '2026-03-14' }],
    ]);
    expect(await screen.findByTestId('toast-success')).toHaveTextContent('Due date changed to Mar 14, 2026');
  });

  it('puts the task back and says why when the server refuses the move', async () => {
    gateway(() => json({ message: 'You may not edit this task' }, 403));
    const user = userEvent.setup();
    open('/calendar?view=week&date=2026-03-12');
    await user.click(await screen.findByRole('button', { name: 'Move Send the offer to another date' }));
    fireEvent.change(screen.getByLabelText('Due date'), { target: { value: '2026-03-13' } });
    await user.click(within(screen.getByTestId('calendar-move-dialog')).getByRole('button', { name: 'Move' }));
    const toast = await screen.findByTestId('toast-error');
    expect(toast).toHaveTextContent('The task could not be moved');
    expect(toast).toHaveTextContent('You may not edit this task');
    expect(tasksOn('2026-03-12')).toEqual(['t-mine', 't-theirs']);
    expect(tasksOn('2026-03-13')).toEqual([]);
  });

  describe('drag and drop', () => {
    // jsdom lays nothing out: each day of the week gets a 100 px wide column, so the pointer's x
    // says which day it is over. The drag overlay (outside every day) starts where the dragged
    // task is: on Thursday 12 March, the fourth column.
    const original = Element.prototype.getBoundingClientRect;
    // jsdom has no PointerEvent; without one the pointer's button and position would be lost.
    class StandInPointerEvent extends MouseEvent {
      readonly isPrimary: boolean;
      readonly pointerId = 1;
      constructor(type: string, init: PointerEventInit = {}) {
        super(type, init);
        this.isPrimary = init.isPrimary ?? true;
      }
    }
    beforeAll(() => {
      Object.assign(window, { PointerEvent: StandInPointerEvent });
    });
    afterAll(() => {
      Reflect.deleteProperty(window, 'PointerEvent');
    });
    afterEach(() => {
      Element.prototype.getBoundingClientRect = original;
    });
    const layOut = (days: string[]) => {
      Element.prototype.getBoundingClientRect = function rect(this: Element) {
        const host = this.closest('[data-day]');
        const index = host ? days.indexOf(host.getAttribute('data-day') ?? '') : 3;
        const left = index * 100;
        const box =
          host === this
            ? { left, top: 0, width: 100, height: 400 }
            : { left: left + 5, top: 40, width: 90, height: 20 };
        return {
          ...box,
          x: box.left,
          y: box.top,
          right: box.left + box.width,
          bottom: box.top + box.height,
          toJSON: () => box,
        } as DOMRect;
      };
    };
    const drag = async (element: HTMLElement, toX: number) => {
      // One step at a time: dnd-kit measures the days in an effect once the drag has started.
      await act(async () => {
        fireEvent.pointerDown(element, { clientX: 350, clientY: 50, button: 0, isPrimary: true });
      });
      await act(async () => {
        fireEvent.pointerMove(document, { clientX: 360, clientY: 50 });
      });
      await act(async () => {
        fireEvent.pointerMove(document, { clientX: toX, clientY: 50 });
      });
      await act(async () => {
        fireEvent.pointerUp(document, { clientX: toX, clientY: 50 });
      });
    };
    const week = ['2026-03-09', '2026-03-10', '2026-03-11', '2026-03-12', '2026-03-13', '2026-03-14', '2026-03-15'];

    it('a task dropped on another day is moved there (PUT {dueDate})', async () => {
      const sent = gateway();
      open('/calendar?view=week&date=2026-03-12');
      const link = await screen.findByRole('link', { name: /Send the offer/ });
      layOut(week);
      await drag(link, 650);
      await waitFor(() => expect(tasksOn('2026-03-15')).toEqual(['t-mine']));
      expect(sent.filter((call) => call.method === 'PUT').map((call) => [call.path, call.body])).toEqual([
        ['/api/tasks/t-mine', { dueDate: '2026-03-15' }],
      ]);
    });

    it('reverts a drop the server refuses; a task the reader may not edit does not move', async () => {
      const sent = gateway(() => json({ message: 'Not allowed' }, 403));
      open('/calendar?view=week&date=2026-03-12');
      const link = await screen.findByRole('link', { name: /Send the offer/ });
      layOut(week);
      await drag(link, 50);
      await screen.findByTestId('toast-error');
      expect(tasksOn('2026-03-09')).toEqual([]);
      expect(tasksOn('2026-03-12')).toEqual(['t-mine', 't-theirs']);
      await drag(screen.getByRole('link', { name: /Call back Bob/ }), 50);
      expect(sent.filter((call) => call.method === 'PUT')).toHaveLength(1);
      expect(tasksOn('2026-03-12')).toEqual(['t-mine', 't-theirs']);
    });
  });

  it('on a phone lists the month’s busy days as an agenda instead of the grid', async () => {
    const matchMedia = window.matchMedia;
    window.matchMedia = ((query: string) => ({
      matches: query.includes('max-width'),
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    })) as unknown as typeof window.matchMedia;
    try {
      gateway();
      open('/calendar?view=month&date=2026-03-15');
      const agenda = await screen.findByTestId('calendar-agenda');
      expect(screen.queryByTestId('calendar-month')).toBeNull();
      expect(
        within(agenda)
          .getAllByTestId('calendar-day')
          .map((item) => item.getAttribute('data-day')),
      ).toEqual(['2026-03-10', '2026-03-12']);
      expect(within(agenda).getByRole('link', { name: /Call with Acme\.mp3/ })).toHaveTextContent(/2:05\sPM/);
    } finally {
      window.matchMedia = matchMedia;
    }
  });

  it('shows an error with a retry, and says when there is nothing', async () => {
    let fail = true;
    fakeGateway((call) =>
      call.path === '/api/calendar'
        ? fail
          ? json({ message: 'Service unavailable' }, 503)
          : json({ recordings: [], tasks: [] })
        : undefined,
    );
    const user = userEvent.setup();
    open('/calendar?view=day&date=2026-03-12');
    expect(await screen.findByTestId('calendar-error')).toHaveTextContent('Service unavailable');
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('calendar-empty')).toHaveTextContent('Nothing in this period.');
  });

  it('creates a feed address and warns that a new one stops the old', async () => {
    const sent = fakeGateway((call) => {
      if (call.path === '/api/calendar') return json({ recordings: [], tasks: [] });
      if (call.path === '/api/calendar/feed' && call.method === 'POST')
        return json({ url: `/api/calendar/feed/${'a'.repeat(40)}.ics` });
      return undefined;
    });
    const user = userEvent.setup();
    open('/calendar?view=month&date=2026-03-12');
    await user.click(screen.getByTestId('calendar-feed-open'));
    const dialog = screen.getByTestId('calendar-feed-dialog');
    expect(within(dialog).getByTestId('calendar-feed-note')).toHaveTextContent(
      'Creating an address again stops the old one',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Create the address' }));
    expect(await within(dialog).findByTestId('calendar-feed-url')).toHaveValue(
      `http://localhost/api/calendar/feed/${'a'.repeat(40)}.ics`,
    );
    await user.click(within(dialog).getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(within(dialog).getByTestId('calendar-feed-copy')).toHaveTextContent('Copied'));
    await expect(navigator.clipboard.readText()).resolves.toBe(
      `http://localhost/api/calendar/feed/${'a'.repeat(40)}.ics`,
    );
    expect(within(dialog).getByRole('button', { name: 'Create a new address' })).toBeInTheDocument();
    expect(sent.filter((call) => call.path === '/api/calendar/feed')).toHaveLength(1);
  });
});
