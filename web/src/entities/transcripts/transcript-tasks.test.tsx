/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// The transcript pages' task parts: an "Action items" run's proposals made into tasks (the POST's
// body, items already tasks shown done) and the viewer's selection as a new task's first values.
import { describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TaskDto } from '@earshot/contracts';
import { fakeGateway, json, renderPage } from '../../../test/fake-gateway';
import { ActionItemsPanel } from './action-items';
import type { AnalysisRun } from './analysis-model';
import type { Segment } from './model';
import { selectionTask } from './selection-task-bar';

const FILE = 'f0000000-0000-4000-8000-000000000001';
const RUN = 'r0000000-0000-4000-8000-000000000001';

const run: AnalysisRun = {
  _id: RUN,
  fileId: FILE,
  promptId: '00000000-0000-4000-8000-00000000a171',
  promptVersion: 1,
  promptName: 'Action items',
  expectedFormat: [],
  patternId: null,
  status: 'completed',
  result: {},
  error: null,
  errorCode: null,
  model: 'fake-model',
  usage: { inputTokens: 10, outputTokens: 5 },
  progress: null,
  durationMs: 20,
  createdAt: '2026-01-01T10:00:00.000Z',
  finishedAt: '2026-01-01T10:00:01.000Z',
  actionItems: [
    { title: 'Send the refund form', owner: 'Alice', due: '2026-02-03' },
    { title: 'Check the last invoice' },
    { title: 'Call the customer back', owner: 'Bob' },
  ],
};

function taskFrom(title: string, n: number, item: number | null): TaskDto {
  return {
    _id: `t0000000-0000-4000-8000-00000000000${n}`,
    title,
    description: '',
    status: 'todo',
    assigneeId: null,
    dueDate: null,
    clientId: null,
    link: { fileId: FILE, seconds: 0 },
    createdBy: 'me',
    createdAt: '2026-01-01T10:00:00.000Z',
    source: item === null ? null : { runId: RUN, item },
  };
}

describe('action items', () => {
  it('sends the ticked indexes, shows items already tasks as done, and links the new tasks', async () => {
    const calls = fakeGateway((call) => {
      // Item 2's task was renamed since; a hand-made task named like item 0 is not item 0's.
      if (call.method === 'GET' && call.path === '/api/tasks')
        return json({
          items: [taskFrom('Ring them on Monday', 9, 2), taskFrom('Send the refund form', 8, null)],
          nextCursor: null,
        });
      if (call.method === 'POST' && call.path === `/api/tasks/from-run/${RUN}`)
        return json({ items: [taskFrom('Check the last invoice', 2, 1)] }, 201);
      return undefined;
    });
    const user = userEvent.setup();
    renderPage(<ActionItemsPanel run={run} language="en" />, { path: '/x', url: '/x', role: 'CALLER' });
    const items = await screen.findAllByTestId('action-item');
    expect(items.map((item) => item.textContent)).toEqual([
      'Send the refund formOwner: Alice · Due Feb 3, 2026',
      'Check the last invoice',
      expect.stringContaining('Call the customer back'),
    ]);
    // The recording's tasks are asked for; the third item is one of them already.
    expect(calls[0]!.query.get('fileId')).toBe(FILE);
    await waitFor(() => expect(items[2]).toHaveAttribute('data-done', 'true'));
    expect(items[0]).toHaveAttribute('data-done', 'false');
    expect(within(items[2]!).getByTestId('action-item-task')).toHaveAttribute(
      'href',
      '/task-list?task=t0000000-0000-4000-8000-000000000009',
    );
    expect(within(items[2]!).queryByRole('checkbox')).toBeNull();

    await user.click(screen.getByLabelText('Send the refund form'));
    await user.click(screen.getByRole('button', { name: 'Create tasks' }));
    expect(await screen.findByTestId('action-items-created')).toHaveTextContent('Tasks created: 1');
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.body)).toEqual([{ items: [1] }]);
    await waitFor(() => expect(screen.getAllByTestId('action-item')[1]).toHaveAttribute('data-done', 'true'));
    expect(within(screen.getAllByTestId('action-item')[1]!).getByTestId('action-item-task')).toHaveAttribute(
      'href',
      '/task-list?task=t0000000-0000-4000-8000-000000000002',
    );
  });

  it('keeps the items and says why when the server refuses', async () => {
    fakeGateway((call) => {
      if (call.method === 'GET' && call.path === '/api/tasks') return json({ items: [], nextCursor: null });
      if (call.method === 'POST') return json({ message: 'This run’s action items are no longer kept' }, 404);
      return undefined;
    });
    const user = userEvent.setup();
    renderPage(<ActionItemsPanel run={run} language="en" />, { path: '/x', url: '/x', role: 'USER' });
    await user.click(await screen.findByRole('button', { name: 'Create tasks' }));
    expect(await screen.findByTestId('action-items-error')).toHaveTextContent(
      'This run’s action items are no longer kept',
    );
    expect(screen.getAllByTestId('action-item').every((item) => item.dataset.done === 'false')).toBe(true);
  });
});

describe('a selection made into a task', () => {
  const segments: Segment[] = [
    {
      _id: 's1',
      speakerId: 'speaker_0',
      start: 0,
      end: 4,
      text: 'hello there',
      words: [
        { _id: 'w1', text: 'hello', start: 0, end: 1 },
        { _id: 'w2', text: 'there', start: 1, end: 2 },
      ],
    },
    {
      _id: 's2',
      speakerId: 'speaker_1',
      start: 4,
      end: 300,
      text: '',
      words: Array.from({ length: 120 }, (_, i) => ({
        _id: `x${i}`,
        text: i === 0 ? ' send ' : 'invoice',
        start: 4.25 + i,
        end: 5 + i,
      })),
    },
  ];

  it('takes the words as the title (at most 200 characters), the first word’s start and the call’s client', () => {
    expect(selectionTask(FILE, 'c1', segments, { segmentId: 's1', anchor: 1, from: 0, to: 1 })).toEqual({
      title: 'hello there',
      link: { fileId: FILE, seconds: 0 },
      clientId: 'c1',
    });
    const long = selectionTask(FILE, null, segments, { segmentId: 's2', anchor: 0, from: 0, to: 119 });
    expect(long?.title?.length).toBeLessThanOrEqual(200);
    expect(long?.title?.startsWith('send invoice invoice')).toBe(true);
    expect(long?.link).toEqual({ fileId: FILE, seconds: 4.25 });
    expect(long?.clientId).toBeNull();
    expect(selectionTask(FILE, null, segments, null)).toBeNull();
  });
});
