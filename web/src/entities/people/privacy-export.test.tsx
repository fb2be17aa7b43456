/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// One's own export on the account page, with the app's store and RTK Query API; only
// `fetch` is faked: the button posts {userId}, the job is asked again while it runs (progress from
// its parts and pending services), then the ZIP's link shows; a refusal shows the server's message.
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import type { PrivacyJobDto } from '@earshot/contracts';
import { fakeGateway, json, renderPage } from '../../../test/fake-gateway';
import { OwnDataExport } from './privacy-export';

const JOB = 'a0000000-0000-4000-8000-000000000001';
/** The job's answers in turn; the last one repeats. */
function job(overrides: Partial<PrivacyJobDto>): PrivacyJobDto {
  return {
    jobId: JOB,
    kind: 'export',
    subject: { kind: 'user', id: 'me' },
    status: 'running',
    parts: [],
    pendingServices: [],
    download: null,
    createdAt: '2026-11-26T06:00:00.000Z',
    finishedAt: null,
    position: null,
    ...overrides,
  };
}
// Companies take turns: two of the company's jobs are ahead of this one.
const QUEUED = job({ status: 'queued', position: 3, pendingServices: ['auth', 'chat', 'file'] });
const RUNNING = job({
  parts: [
    { service: 'auth', counts: { profile: 1, sessions: 2 } },
    { service: 'chat', counts: { conversations: 3 } },
  ],
  pendingServices: ['file', 'transcription', 'tenant', 'prompt', 'audit'],
});
const DONE = job({
  status: 'done',
  finishedAt: '2026-11-26T06:00:05.000Z',
  download: `/api/privacy/jobs/${JOB}/download`,
  pendingServices: [],
  parts: [
    ...RUNNING.parts,
    { service: 'file', counts: { recordings: 4 } },
    { service: 'tenant', counts: {} },
    { service: 'gadgets', counts: { widgets: 2 } },
  ],
});
// Polling is every 1.5 s: waiting for the next answer, not for a time.
const POLLED = { timeout: 10_000 };

function Frame({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-label={title} data-testid={`frame-${id}`}>
      {children}
    </section>
  );
}

const ME = { kind: 'user', id: 'me', name: 'Mia Meri', email: 'mia@example.com' } as const;

afterEach(() => localStorage.clear());

describe('your data on the account page', () => {
  it('starts an export of one’s own data, shows the services that answered, then the ZIP’s link', async () => {
    const answers = [QUEUED, RUNNING, DONE];
    const calls = fakeGateway((call) => {
      if (call.path === '/api/privacy/export' && call.method === 'POST') return json({ jobId: JOB }, 202);
      if (call.path === `/api/privacy/jobs/${JOB}`) return json(answers.length > 1 ? answers.shift() : answers[0]);
      return undefined;
    });
    const user = userEvent.setup();
    renderPage(<OwnDataExport person={ME} Frame={Frame} />, { path: '/profile', url: '/profile', role: 'USER' });
    expect(screen.getByRole('region', { name: 'Your data' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Download my data' }));

    expect(await screen.findByTestId('privacy-queued')).toHaveTextContent("Waiting: 2 ahead in your company's line");
    expect(screen.queryByRole('progressbar')).toBeNull();

    expect(await screen.findByTestId('privacy-progress', {}, POLLED)).toHaveTextContent('2 of 7 services answered');
    expect(screen.getByRole('progressbar')).toHaveAttribute('value', '2');
    expect(screen.getByRole('button', { name: 'Download my data' })).toBeDisabled();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ userId: 'me' });

    const link = await screen.findByRole('link', { name: 'Download the ZIP' }, POLLED);
    expect(link).toHaveAttribute('href', `/api/privacy/jobs/${JOB}/download`);
    expect(screen.queryByRole('progressbar')).toBeNull();
    const report = screen.getByTestId('privacy-report');
    expect(report).toHaveTextContent('AccountProfile: 1 · Sessions: 2');
    expect(report).toHaveTextContent('RecordingsRecordings: 4');
    expect(report).toHaveTextContent('ClientsNothing');
    // A service or a kind the console does not know yet shows as the server names it.
    expect(report).toHaveTextContent('gadgetswidgets: 2');
    // Done: the button may start a new export.
    expect(screen.getByRole('button', { name: 'Download my data' })).toBeEnabled();
  }, 20_000);

  it('says so when the export fails, and shows the server’s message when it is refused', async () => {
    let refuse = true;
    fakeGateway((call) => {
      if (call.path === '/api/privacy/export')
        return refuse
          ? json({ message: 'Too many exports at once', code: 'CONFLICT' }, 409)
          : json({ jobId: JOB }, 202);
      if (call.path === `/api/privacy/jobs/${JOB}`)
        return json(job({ status: 'failed', finishedAt: '2026-11-26T06:00:05.000Z' }));
      return undefined;
    });
    const user = userEvent.setup();
    renderPage(<OwnDataExport person={ME} Frame={Frame} />, { path: '/profile', url: '/profile', role: 'USER' });
    await user.click(screen.getByRole('button', { name: 'Download my data' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many exports at once');

    refuse = false;
    await user.click(screen.getByRole('button', { name: 'Download my data' }));
    expect(await screen.findByText('The export failed. Start it again.')).toBeInTheDocument();
    expect(screen.queryByText('Too many exports at once')).toBeNull();
    expect(screen.queryByRole('link', { name: 'Download the ZIP' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Download my data' })).toBeEnabled();
  });
});
