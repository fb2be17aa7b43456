/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// The platform administrator's first-run checklist, from the same answers the pages that need each
// step read; only the network is faked.
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import { fakeGateway, json, renderPage, type Call } from '../../../test/fake-gateway';
import FirstRunChecklist from './first-run-checklist';

interface Platform {
  builtIn: boolean;
  whisper: boolean;
  speakerSeparation: boolean;
  smtp: boolean;
}

function platform({ builtIn, whisper, speakerSeparation, smtp }: Platform): Call[] {
  return fakeGateway(({ path }) => {
    if (path === '/api/chat/models') return json({ models: [], builtIn });
    if (path === '/api/ai/speech-models/readiness') return json({ whisper, speakerSeparation });
    if (path === '/api/email/outbox') return json({ items: [], page: 1, pageSize: 1, total: 0, totalPages: 0, smtp });
    return undefined;
  });
}

const show = () => renderPage(<FirstRunChecklist />, { path: '/', url: '/', role: 'HOST_ADMIN', companyId: null });
const steps = () =>
  screen.getAllByTestId('first-run-step').map((step) => [step.dataset.step, step.dataset.done === 'true']);

afterEach(() => localStorage.clear());

describe('first-run checklist', () => {
  it('on a new platform lists the four steps, none ticked, each linking to where it is done', async () => {
    platform({ builtIn: true, whisper: false, speakerSeparation: false, smtp: false });
    show();
    const list = await screen.findByTestId('first-run-checklist');
    expect(within(list).getByRole('heading', { name: 'Get the platform ready' })).toBeInTheDocument();
    expect(steps()).toEqual([
      ['model', false],
      ['whisper', false],
      ['speakers', false],
      ['mail', false],
    ]);
    const link = (name: string) => within(list).getByRole('link', { name: `Open: ${name}` });
    expect(link('Connect a language model')).toHaveAttribute('href', '/ai-config');
    expect(link('Download a Whisper model')).toHaveAttribute('href', '/ai-config#speech-models');
    expect(link('Download the speaker models')).toHaveAttribute('href', '/ai-config#speech-models');
    expect(link('Set up mail')).toHaveAttribute('href', '/email-templates?tab=outbox');
  });

  it('ticks what is done and drops its link', async () => {
    platform({ builtIn: false, whisper: true, speakerSeparation: false, smtp: true });
    show();
    await screen.findByTestId('first-run-checklist');
    expect(steps()).toEqual([
      ['model', true],
      ['whisper', true],
      ['speakers', false],
      ['mail', true],
    ]);
    expect(screen.getAllByRole('link').map((link) => link.getAttribute('href'))).toEqual(['/ai-config#speech-models']);
    expect(screen.getByText('Connect a language model')).toHaveTextContent('Connect a language model (Done)');
  });

  it('is gone once every step is done', async () => {
    const calls = platform({ builtIn: false, whisper: true, speakerSeparation: true, smtp: true });
    show();
    await waitFor(() => expect(calls.map((call) => call.path)).toContain('/api/email/outbox'));
    await waitFor(() => expect(calls).toHaveLength(3));
    expect(screen.queryByTestId('first-run-checklist')).toBeNull();
  });
});
