/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// With the company's redaction on, a task may be saved with a number hidden in its title or
// description: the page's "Task created" says so, with the notice every form that saves free text shows.
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TaskCreateBody, TaskSaved } from '@earshot/contracts';
import { fakeGateway, json, renderPage } from '../../../test/fake-gateway';
import TaskListPage from './task-list-page';

// The dialog is a lazy chunk: its first import (transformed on the fly) may take more than a second on a busy machine.
const LAZY = { timeout: 10_000 };

afterEach(() => localStorage.clear());

describe('tasks and redaction', () => {
  it('a new task whose title and description redaction changed tells how many spans were hidden', async () => {
    const calls = fakeGateway((call) => {
      if (call.path === '/api/tasks' && call.method === 'GET') return json({ items: [], nextCursor: null });
      if (call.path === '/api/tasks' && call.method === 'POST') {
        const body = call.body as TaskCreateBody;
        const saved: TaskSaved = {
          _id: 't0000000-0000-4000-8000-000000000001',
          title: body.title.replace(/\d[\d ]+\d/, '[card number]'),
          description: '[card number]',
          status: 'todo',
          assigneeId: null,
          dueDate: null,
          clientId: null,
          link: null,
          createdBy: 'me',
          createdAt: '2026-01-01T10:00:00.000Z',
          redacted: 2,
        };
        return json(saved, 201);
      }
      if (call.path === '/api/tasks/members') return json([]);
      if (call.path === '/api/clients/dropdown') return json([]);
      return undefined;
    });
    const user = userEvent.setup();
    renderPage(<TaskListPage />, { path: '/task-list', url: '/task-list', role: 'CALLER' });
    await user.click(await screen.findByTestId('task-new'));
    const form = await screen.findByTestId('task-form', {}, LAZY);
    await user.type(within(form).getByLabelText('Title'), 'Refund 4111 1111 1111 1111');
    await user.type(within(form).getByLabelText('Description'), '4111111111111111');
    await user.click(within(form).getByRole('button', { name: 'Create task' }));
    const toast = await screen.findByTestId('toast-success');
    expect(toast).toHaveTextContent('Task created');
    expect(toast).toHaveTextContent(
      'Removed before it was saved: card numbers, account numbers, IDs, e-mail addresses or phone numbers (2).',
    );
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(1);
  });
});
