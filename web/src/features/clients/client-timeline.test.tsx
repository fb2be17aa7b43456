/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// The client profile's timeline: calls from the client detail API and tasks from GET /tasks?clientId=.
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, within } from '@testing-library/react';
import type { ClientDetailDto, TaskDto } from '@earshot/contracts';
import { fakeGateway, json, renderPage } from '../../../test/fake-gateway';
import ClientProfilePage from './client-profile-page';

const COMPANY = 'c0000000-0000-4000-8000-000000000001';
const CLIENT = 'b0000000-0000-4000-8000-000000000001';
const FILE = 'f0000000-0000-4000-8000-000000000001';
const detail: ClientDetailDto = {
  _id: CLIENT,
  companyId: COMPANY,
  name: 'Northwind',
  organisation: null,
  email: null,
  phone: null,
  externalId: null,
  notes: null,
  ownerId: null,
  createdAt: '2026-01-01T10:00:00.000Z',
  updatedAt: '2026-01-01T10:00:00.000Z',
  recordings: [
    { fileId: FILE, name: 'renewal.wav', status: 'completed', duration: 75, uploadedAt: '2026-01-03T10:00:00.000Z' },
    {
      fileId: 'f0000000-0000-4000-8000-000000000002',
      name: 'fresh.wav',
      status: 'processing',
      duration: null,
      uploadedAt: '2026-01-05T10:00:00Z',
    },
  ],
};
const task = (id: string, title: string, createdAt: string, extra: Partial<TaskDto> = {}): TaskDto => ({
  _id: id,
  title,
  description: '',
  status: 'todo',
  assigneeId: null,
  dueDate: null,
  clientId: CLIENT,
  link: null,
  createdBy: 'me',
  createdAt,
  ...extra,
});
const tasks = [
  task('t2', '<img src=x onerror=alert(1)> Send the quote', '2026-01-04T09:00:00.000Z', {
    status: 'in_progress',
    dueDate: '2026-01-09',
    link: { fileId: FILE, seconds: 65 },
  }),
  task('t1', 'Call back', '2026-01-02T09:00:00.000Z', { status: 'done' }),
];

afterEach(() => localStorage.clear());

function gateway() {
  return fakeGateway((call) => {
    if (call.path === `/api/clients/${CLIENT}`) return json(detail);
    if (call.path === '/api/tasks') return json({ items: tasks, nextCursor: null });
    if (call.path === '/api/users/dropdown') return json([]);
    return undefined;
  });
}

describe('client timeline', () => {
  it('merges the client’s calls and tasks, newest first, with the task’s status, due day and moment', async () => {
    const calls = gateway();
    renderPage(<ClientProfilePage />, { path: '/client/:clientId', url: `/client/${CLIENT}`, role: 'CALLER' });
    const timeline = await screen.findByTestId('client-timeline');
    await within(timeline).findByText('Call back');
    expect(
      within(timeline)
        .getAllByTestId('timeline-entry')
        .map((entry) => entry.dataset.kind),
    ).toEqual(['call', 'task', 'call', 'task', 'created']);
    const entries = within(timeline).getAllByTestId('timeline-entry');
    expect(entries[0]).toHaveTextContent('Call fresh.wavTranscribing');
    // A title is text: the markup shows as its letters.
    expect(entries[1]).toHaveTextContent(
      'Task <img src=x onerror=alert(1)> Send the quoteIn progressdue Jan 9, 2026at 1:05',
    );
    expect(entries[1]!.querySelector('img')).toBeNull();
    expect(within(entries[1]!).getByRole('link', { name: 'at 1:05' })).toHaveAttribute(
      'href',
      `/transcripts/${FILE}?t=65`,
    );
    expect(within(entries[2]!).getByRole('link', { name: 'renewal.wav' })).toHaveAttribute(
      'href',
      `/transcripts/${FILE}`,
    );
    expect(entries[3]).toHaveTextContent('Done');
    expect(Object.fromEntries(calls.find((call) => call.path === '/api/tasks')!.query)).toEqual({
      clientId: CLIENT,
      sort: 'createdAt',
      order: 'desc',
      limit: '100',
    });
  });

  it('a HOST_ADMIN, who belongs to no company, sees the calls without asking for tasks', async () => {
    const calls = gateway();
    renderPage(<ClientProfilePage />, {
      path: '/client/:clientId',
      url: `/client/${CLIENT}`,
      role: 'HOST_ADMIN',
      companyId: null,
    });
    const timeline = await screen.findByTestId('client-timeline');
    expect(
      within(timeline)
        .getAllByTestId('timeline-entry')
        .map((entry) => entry.dataset.kind),
    ).toEqual(['call', 'call', 'created']);
    expect(calls.some((call) => call.path === '/api/tasks')).toBe(false);
  });

  it('says when the tasks cannot be loaded and still shows the calls', async () => {
    fakeGateway((call) =>
      call.path === `/api/clients/${CLIENT}`
        ? json(detail)
        : call.path === '/api/tasks'
          ? json({ message: 'Tasks are resting' }, 503)
          : undefined,
    );
    renderPage(<ClientProfilePage />, { path: '/client/:clientId', url: `/client/${CLIENT}`, role: 'CALLER' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Tasks are resting');
    expect(within(screen.getByTestId('client-timeline')).getAllByTestId('timeline-entry')).toHaveLength(3);
  });
});
