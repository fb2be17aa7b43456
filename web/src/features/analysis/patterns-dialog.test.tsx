/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// The analysis page's "Manage patterns" dialog with the app's store and RTK Query API; only the
// network is faked, answering with the prompt service's pattern shapes.
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Role } from '@earshot/contracts/constants';
import { fakeGateway, json, renderPage, type Call } from '../../../test/fake-gateway';
import type { Pattern } from '../../entities/transcripts';
import TranscriptAnalysisPage from './transcript-analysis-page';

const FILE = 'f0000000-0000-4000-8000-000000000001';
const COMPANY = 'c0000000-0000-4000-8000-000000000001';
const P1 = 'a0000000-0000-4000-8000-000000000001';
const P2 = 'a0000000-0000-4000-8000-000000000002';
const transcript = {
  _id: 't1',
  status: 'completed',
  audioPath: '',
  file: { url: '', path: 'x', filename: 'x', originalName: 'call.wav', uploadDate: '2026-01-02T10:00:00.000Z' },
  metadata: { speakerSegments: [] },
};
const prompt = (id: string, name: string) => ({
  _id: id,
  name,
  description: '',
  type: 'custom',
  scope: null,
  isGlobal: true,
  version: 1,
  expectedFormat: [],
});
const pattern = (id: string, name: string, companyId: string | null): Pattern => ({
  _id: id,
  name,
  description: '',
  promptIds: [P1, P2],
  autoRun: 'none',
  companyId,
  createdAt: '2026-01-02T10:00:00.000Z',
  updatedAt: '2026-01-02T10:00:00.000Z',
});
const page = (items: unknown[]) => ({ items, page: 1, pageSize: 200, total: items.length, totalPages: 1 });

function gateway(patterns: () => Pattern[], extra: (call: Call) => ReturnType<typeof json> = () => undefined): Call[] {
  return fakeGateway((call) => {
    if (call.path === `/api/transcripts/file/${FILE}`) return json(transcript);
    if (call.path === `/api/analysis/transcripts/${FILE}/metrics`)
      return json({ duration: 0, speakers: [], overlaps: { count: 0, total: 0 }, silence: { total: 0, longest: 0 } });
    if (call.path === '/api/analysis/transcripts') return json([]);
    if (call.path === '/api/prompts/available') return json(page([prompt(P1, 'Summary'), prompt(P2, 'Sentiment')]));
    if (call.path === '/api/companies/dropdown') return json([{ _id: COMPANY, name: 'Acme' }]);
    if (call.path === '/api/analysis/patterns' && call.method === 'GET') return json(page(patterns()));
    return extra(call);
  });
}

async function openDialog(role: Role) {
  const user = userEvent.setup();
  renderPage(<TranscriptAnalysisPage />, {
    path: '/transcripts/:id/analysis',
    url: `/transcripts/${FILE}/analysis`,
    role,
    companyId: role === 'HOST_ADMIN' ? null : COMPANY,
  });
  await user.click(await screen.findByTestId('manage-patterns'));
  return { user, dialog: await screen.findByTestId('patterns-dialog') };
}

afterEach(() => localStorage.clear());

describe('manage analysis patterns', () => {
  it('a HOST_ADMIN creates a global pattern of two prompts that runs on every transcript, and the run picker gets it', async () => {
    const saved = pattern('b0000000-0000-4000-8000-000000000001', 'Sales call review', null);
    let list: Pattern[] = [];
    const calls = gateway(
      () => list,
      (call) => {
        if (call.path === '/api/analysis/patterns' && call.method === 'POST') {
          list = [saved];
          return json(saved, 201);
        }
        return undefined;
      },
    );
    const { user, dialog } = await openDialog('HOST_ADMIN');
    await user.click(within(dialog).getByTestId('add-pattern'));
    const form = within(dialog).getByTestId('pattern-form');
    await user.click(within(form).getByRole('button', { name: 'Create pattern' }));
    expect(await within(form).findByText('Choose at least one prompt')).toBeInTheDocument();

    await user.type(within(form).getByLabelText('Name'), 'Sales call review');
    await user.click(within(form).getByLabelText('Summary'));
    await user.click(within(form).getByLabelText('Sentiment'));
    await user.selectOptions(
      within(form).getByLabelText('Run automatically'),
      'On every completed transcript of the company',
    );
    await waitFor(() =>
      expect(within(within(form).getByLabelText('Company')).getByRole('option', { name: 'Acme' })).toBeInTheDocument(),
    );
    expect(within(form).getByLabelText('Company')).toHaveValue('');
    await user.click(within(form).getByRole('button', { name: 'Create pattern' }));

    expect(await screen.findByText('Pattern created successfully')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.body)).toEqual([
      {
        name: 'Sales call review',
        description: '',
        promptIds: [P1, P2],
        autoRun: 'company_transcripts',
        companyId: null,
      },
    ]);
    // The list in the dialog and the run picker both show the new pattern.
    expect(await within(dialog).findByText('Summary, Sentiment')).toBeInTheDocument();
    // The picker asks again after the list changed: its answer may come after the dialog's.
    expect(
      await within(screen.getByTestId('run-choice')).findByRole('option', { name: 'Sales call review' }),
    ).toBeInTheDocument();
  });

  it('an ADMIN picks no company, may change only their company’s patterns, and sees a refused prompt on the prompts', async () => {
    const refusal = {
      message: 'Validation failed',
      details: [{ field: 'body.promptIds.0', message: `Prompt ${P2} cannot be used by this pattern` }],
    };
    const calls = gateway(
      () => [
        pattern('b0000000-0000-4000-8000-000000000001', 'House review', null),
        pattern('b0000000-0000-4000-8000-000000000002', 'Our review', COMPANY),
      ],
      (call) => (call.path === '/api/analysis/patterns' && call.method === 'POST' ? json(refusal, 400) : undefined),
    );
    const { user, dialog } = await openDialog('ADMIN');
    expect(await within(dialog).findByText('Our review')).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Edit the pattern House review' })).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Edit the pattern Our review' })).toBeInTheDocument();
    await user.click(within(dialog).getByTestId('add-pattern'));
    expect(within(dialog).getByTestId('pattern-form')).toBeInTheDocument();
    expect(within(dialog).queryByLabelText('Company')).not.toBeInTheDocument();
    expect(calls.some((call) => call.path === '/api/companies/dropdown')).toBe(false);

    const form = within(dialog).getByTestId('pattern-form');
    await user.type(within(form).getByLabelText('Name'), 'Ours');
    await user.click(within(form).getByLabelText('Sentiment'));
    await user.click(within(form).getByRole('button', { name: 'Create pattern' }));
    expect(await within(form).findByText(`Prompt ${P2} cannot be used by this pattern`)).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.body)).toEqual([
      { name: 'Ours', description: '', promptIds: [P2], autoRun: 'none' },
    ]);
  });

  it('delete asks first, then deletes', async () => {
    const ours = pattern('b0000000-0000-4000-8000-000000000002', 'Our review', COMPANY);
    let list = [ours];
    const calls = gateway(
      () => list,
      (call) => {
        if (call.path === `/api/analysis/patterns/${ours._id}` && call.method === 'DELETE') {
          list = [];
          return json({ message: 'Pattern deleted' });
        }
        return undefined;
      },
    );
    const { user, dialog } = await openDialog('ADMIN');
    await user.click(await within(dialog).findByRole('button', { name: 'Delete the pattern Our review' }));
    expect(await screen.findByText('Are you sure you want to delete the pattern Our review?')).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    await user.click(screen.getByTestId('confirm-yes'));
    expect(await screen.findByText('Pattern deleted successfully')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'DELETE').map((call) => call.path)).toEqual([
      `/api/analysis/patterns/${ours._id}`,
    ]);
    expect(
      await within(dialog).findByText('No pattern yet: a pattern runs several prompts together.'),
    ).toBeInTheDocument();
  });
});
