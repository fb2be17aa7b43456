/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// The task list and board with the app's store and RTK Query API; only the network is faked
// (web/test/fake-gateway.tsx answers like the gateway).
import { describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TaskDto } from '@earshot/contracts';
import { fakeGateway, json, renderPage, type Call } from '../../../test/fake-gateway';
import TaskKanbanPage from './task-kanban-page';
import TaskListPage from './task-list-page';

const ME = 'me';
const ALICE = 'a0000000-0000-4000-8000-00000000000a';
const BOB = 'b0000000-0000-4000-8000-00000000000b';
const CLIENT = 'c1000000-0000-4000-8000-0000000000c1';

function task(n: number, extra: Partial<TaskDto> = {}): TaskDto {
  return {
    _id: `t0000000-0000-4000-8000-00000000000${n}`,
    title: `Task ${n}`,
    description: '',
    status: 'todo',
    assigneeId: ME,
    dueDate: '2026-03-0' + n,
    clientId: null,
    link: null,
    createdBy: ME,
    createdAt: `2026-01-0${n}T10:00:00.000Z`,
    ...extra,
  };
}

const directory = (call: Call) => {
  if (call.path === '/api/tasks/members')
    return json([
      { _id: ALICE, name: 'Alice Agent', email: 'alice@acme.test' },
      { _id: BOB, name: 'Bob Builder', email: 'bob@acme.test' },
    ]);
  if (call.path === '/api/clients/dropdown') return json([{ _id: CLIENT, name: 'Globex' }]);
  return undefined;
};
// The dialog is a lazy chunk: its first import (transformed on the fly) may take more than a second on a busy machine.
const LAZY = { timeout: 10_000 };
const listCalls = (calls: Call[]) => calls.filter((call) => call.method === 'GET' && call.path === '/api/tasks');

describe('task list', () => {
  it('sends the URL’s filters and sort, changes them from the form, and loads more after the cursor', async () => {
    const calls = fakeGateway(
      (call) =>
        directory(call) ??
        (call.path === '/api/tasks'
          ? json(
              call.query.get('cursor') === 'next-1'
                ? { items: [task(3)], nextCursor: null }
                : { items: [task(1), task(2, { assigneeId: ALICE, clientId: CLIENT })], nextCursor: 'next-1' },
            )
          : undefined),
    );
    const user = userEvent.setup();
    renderPage(<TaskListPage />, {
      path: '/task-list',
      url: '/task-list?status=todo&due=overdue&sort=title&order=desc&bogus=1',
      role: 'ADMIN',
    });
    expect(await screen.findAllByTestId('data-table-row')).toHaveLength(2);
    expect(Object.fromEntries(listCalls(calls)[0]!.query)).toEqual({
      status: 'todo',
      due: 'overdue',
      sort: 'title',
      order: 'desc',
    });
    // Names come from the pickers' lists: the caller is "Me", Alice by name, the client by name.
    const rows = screen.getAllByTestId('data-table-row');
    expect(within(rows[1]!).getByText('Alice Agent')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Globex')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('Me')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(screen.getAllByTestId('data-table-row')).toHaveLength(3));
    expect(listCalls(calls).at(-1)!.query.get('cursor')).toBe('next-1');

    await user.selectOptions(screen.getByLabelText('Assignee', { selector: 'select' }), ALICE);
    await waitFor(() => expect(listCalls(calls).at(-1)!.query.get('assignee')).toBe(ALICE));
    await user.selectOptions(screen.getByLabelText('Client', { selector: 'select' }), CLIENT);
    await user.selectOptions(screen.getByLabelText('Sort by'), 'dueDate');
    await waitFor(() =>
      expect(Object.fromEntries(listCalls(calls).at(-1)!.query)).toEqual({
        assignee: ALICE,
        status: 'todo',
        clientId: CLIENT,
        due: 'overdue',
        sort: 'dueDate',
        order: 'desc',
      }),
    );
    // "Only mine" replaces the assignee.
    await user.click(screen.getByLabelText('Only my tasks'));
    await waitFor(() =>
      expect(Object.fromEntries(listCalls(calls).at(-1)!.query)).toEqual({
        mine: 'true',
        status: 'todo',
        clientId: CLIENT,
        due: 'overdue',
        sort: 'dueDate',
        order: 'desc',
      }),
    );
    await user.click(screen.getByTestId('filter-clear'));
    await waitFor(() =>
      expect(Object.fromEntries(listCalls(calls).at(-1)!.query)).toEqual({ sort: 'dueDate', order: 'desc' }),
    );
  });

  it('gives a USER’s page the company’s people from the tasks service, never the clients (refused to them); someone gone is “A colleague”', async () => {
    const calls = fakeGateway(
      (call) =>
        directory(call) ??
        (call.path === '/api/tasks'
          ? json({
              items: [
                task(1, { assigneeId: ALICE, createdBy: ALICE }),
                task(2, { assigneeId: 'a0000000-0000-4000-8000-00000000dead', createdBy: ALICE }),
              ],
              nextCursor: null,
            })
          : undefined),
    );
    renderPage(<TaskListPage />, { path: '/task-list', url: '/task-list', role: 'USER' });
    const rows = await screen.findAllByTestId('data-table-row');
    expect(await within(rows[0]!).findByText('Alice Agent')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('A colleague')).toBeInTheDocument();
    // The assignee filter offers the people too.
    expect(screen.getByRole('option', { name: 'Bob Builder' })).toBeInTheDocument();
    expect(calls.map((call) => call.path)).toContain('/api/tasks/members');
    expect(calls.map((call) => call.path)).not.toContain('/api/users/dropdown');
    expect(calls.map((call) => call.path)).not.toContain('/api/clients/dropdown');
  });

  it('opens ?task=<id> (where mails link) read-only for someone who may not change it', async () => {
    const other = task(4, {
      assigneeId: ALICE,
      createdBy: ALICE,
      description: 'Call them back',
      link: { fileId: 'f0000000-0000-4000-8000-000000000001', seconds: 65.4 },
    });
    fakeGateway((call) =>
      call.path === '/api/tasks'
        ? json({ items: [other], nextCursor: null })
        : call.path === `/api/tasks/${other._id}`
          ? json(other)
          : undefined,
    );
    renderPage(<TaskListPage />, { path: '/task-list', url: `/task-list?task=${other._id}`, role: 'USER' });
    const details = await screen.findByTestId('task-details', {}, LAZY);
    expect(within(details).getByText('Call them back')).toBeInTheDocument();
    expect(within(details).getByTestId('task-link')).toHaveAttribute(
      'href',
      '/transcripts/f0000000-0000-4000-8000-000000000001?t=65.4',
    );
    expect(within(details).getByText('Open the recording at 1:05')).toBeInTheDocument();
    expect(screen.queryByTestId('task-form')).toBeNull();
    expect(screen.queryByTestId('task-delete')).toBeNull();
  });

  it('shows the server’s complaint at its field and sends only what changed', async () => {
    const mine = task(5);
    const calls = fakeGateway((call) => {
      if (call.path === '/api/tasks' && call.method === 'GET') return json({ items: [mine], nextCursor: null });
      if (call.path === `/api/tasks/${mine._id}` && call.method === 'GET') return json(mine);
      if (call.path === `/api/tasks/${mine._id}` && call.method === 'PUT') {
        return (call.body as { assigneeId?: string }).assigneeId === ALICE
          ? json(
              {
                message: 'Validation failed',
                details: [{ field: 'body.assigneeId', message: 'must be a member of your company' }],
              },
              400,
            )
          : json({ ...mine, ...(call.body as object) });
      }
      return directory(call);
    });
    const user = userEvent.setup();
    renderPage(<TaskListPage />, { path: '/task-list', url: '/task-list', role: 'ADMIN' });
    await user.click(await screen.findByRole('button', { name: 'Open the task “Task 5”' }));
    const form = await screen.findByTestId('task-form', {}, LAZY);
    await waitFor(() => expect(within(form).getByRole('option', { name: 'Alice Agent' })).toBeInTheDocument());
    await user.selectOptions(within(form).getByLabelText('Assignee'), ALICE);
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText('must be a member of your company')).toBeInTheDocument();
    expect(within(form).getByLabelText('Assignee')).toHaveAttribute('aria-invalid', 'true');
    expect(calls.filter((call) => call.method === 'PUT').map((call) => call.body)).toEqual([{ assigneeId: ALICE }]);

    await user.selectOptions(within(form).getByLabelText('Assignee'), BOB);
    await user.selectOptions(within(form).getByLabelText('Status'), 'done');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByTestId('task-form')).toBeNull());
    expect(calls.filter((call) => call.method === 'PUT').at(-1)!.body).toEqual({ status: 'done', assigneeId: BOB });
  });

  it('refuses a blank title before sending anything', async () => {
    const calls = fakeGateway((call) =>
      call.path === '/api/tasks' && call.method === 'GET' ? json({ items: [], nextCursor: null }) : directory(call),
    );
    const user = userEvent.setup();
    renderPage(<TaskListPage />, { path: '/task-list', url: '/task-list', role: 'CALLER' });
    expect(await screen.findByText('No tasks match these filters.')).toBeInTheDocument();
    await user.click(screen.getByTestId('task-new'));
    const form = await screen.findByTestId('task-form', {}, LAZY);
    await user.click(within(form).getByRole('button', { name: 'Create task' }));
    expect(await within(form).findByText('Title is required')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);
  });
});

function board(todo: TaskDto[], putAnswer: (call: Call) => ReturnType<typeof json>) {
  const state = { todo: [...todo], in_progress: [] as TaskDto[], done: [] as TaskDto[] };
  const calls = fakeGateway((call) => {
    if (call.path === '/api/tasks' && call.method === 'GET')
      return json({ items: state[call.query.get('status') as keyof typeof state], nextCursor: null });
    if (call.method === 'PUT') {
      const answer = putAnswer(call);
      if (answer?.status === 200) {
        const moved = answer.body as TaskDto;
        for (const key of Object.keys(state) as Array<keyof typeof state>)
          state[key] = state[key].filter((item) => item._id !== moved._id);
        state[moved.status].push(moved);
      }
      return answer;
    }
    return directory(call);
  });
  return calls;
}

const column = (status: string) =>
  screen.getAllByTestId('kanban-column').find((element) => element.dataset.status === status)!;

async function moveWithKeyboard(user: ReturnType<typeof userEvent.setup>, title: string, target: string) {
  const card = within(column('todo')).getByText(title).closest('li')!;
  within(card)
    .getByRole('button', { name: `Move “${title}”` })
    .focus();
  await user.keyboard('{ArrowDown}');
  // The entries are the other columns in the board's order: "In progress", then "Done".
  await waitFor(() => expect(screen.getByRole('menuitem', { name: 'Move to In progress' })).toHaveFocus());
  if (target === 'Done') await user.keyboard('{ArrowDown}');
  expect(screen.getByRole('menuitem', { name: `Move to ${target}` })).toHaveFocus();
  await user.keyboard('{Enter}');
}

describe.each(['en', 'fr', 'et', 'lv'] as const)('task list dates in %s', (language) => {
  it('writes due days as Intl does in the language, never as 2026-11-30', async () => {
    fakeGateway(
      (call) =>
        directory(call) ??
        (call.path === '/api/tasks'
          ? json({ items: [task(1, { dueDate: '2099-11-30' }), task(2, { dueDate: '2026-03-02' })], nextCursor: null })
          : undefined),
    );
    renderPage(<TaskListPage />, { path: '/task-list', url: '/task-list', role: 'ADMIN', language });
    await screen.findAllByTestId('data-table-row');
    const day = (iso: string) =>
      new Intl.DateTimeFormat(language, { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' }).format(
        new Date(`${iso}T00:00:00Z`),
      );
    const [future, overdue] = screen.getAllByTestId('task-due');
    expect(future!.textContent).toBe(day('2099-11-30'));
    // An overdue day is followed by its marker.
    expect(overdue!.textContent!.startsWith(day('2026-03-02'))).toBe(true);
    expect(
      screen
        .getAllByTestId('data-table-row')
        .map((row) => row.textContent)
        .join(' '),
    ).not.toMatch(/\d{4}-\d{2}-\d{2}/);
  });
});

describe('task board', () => {
  it('moves a card with the keyboard: PUT {status} alone, the card in its new column at once, announced', async () => {
    const first = task(1);
    const calls = board([first, task(2)], (call) => json({ ...first, ...(call.body as object) }));
    const user = userEvent.setup();
    renderPage(<TaskKanbanPage />, {
      path: '/task-kanban',
      url: '/task-kanban?due=week&status=done&sort=title',
      role: 'USER',
    });
    await within(await screen.findByTestId('kanban-board')).findByText('Task 1');
    // Each column asks for its own status with the board's filters (the list's status and sort do not apply).
    await waitFor(() =>
      expect(listCalls(calls).map((call) => Object.fromEntries(call.query))).toEqual(
        expect.arrayContaining([
          { due: 'week', status: 'todo' },
          { due: 'week', status: 'in_progress' },
          { due: 'week', status: 'done' },
        ]),
      ),
    );

    await moveWithKeyboard(user, 'Task 1', 'In progress');
    await waitFor(() => expect(within(column('in_progress')).getByText('Task 1')).toBeInTheDocument());
    expect(within(column('todo')).queryByText('Task 1')).toBeNull();
    const puts = calls.filter((call) => call.method === 'PUT');
    expect(puts.map((call) => [call.path, call.body])).toEqual([
      [`/api/tasks/${first._id}`, { status: 'in_progress' }],
    ]);
    await waitFor(() =>
      expect(screen.getByTestId('kanban-announcement')).toHaveTextContent('“Task 1” moved to In progress.'),
    );
  });

  it('puts the card back and says why when the server refuses the move', async () => {
    const first = task(1);
    board([first], () =>
      json({ message: 'Only the assignee, the creator or an administrator may change this task' }, 403),
    );
    const user = userEvent.setup();
    renderPage(<TaskKanbanPage />, { path: '/task-kanban', url: '/task-kanban', role: 'USER' });
    await within(await screen.findByTestId('kanban-board')).findByText('Task 1');
    await moveWithKeyboard(user, 'Task 1', 'Done');
    expect(await screen.findByTestId('toast-error')).toHaveTextContent(
      '“Task 1” could not be moved: Only the assignee, the creator or an administrator may change this task',
    );
    await waitFor(() => expect(within(column('todo')).getByText('Task 1')).toBeInTheDocument());
    expect(within(column('done')).queryByText('Task 1')).toBeNull();
  });

  it('offers no move on a task the caller may not change', async () => {
    board([task(1, { assigneeId: ALICE, createdBy: ALICE })], () => undefined);
    renderPage(<TaskKanbanPage />, { path: '/task-kanban', url: '/task-kanban', role: 'CALLER' });
    const card = (await within(await screen.findByTestId('kanban-board')).findByText('Task 1')).closest('li')!;
    expect(within(card).queryByRole('button', { name: 'Move “Task 1”' })).toBeNull();
    expect(within(card).queryByRole('button', { name: 'Pick up “Task 1”' })).toBeNull();
  });
});
