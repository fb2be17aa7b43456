/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// The analysis page with the app's store and RTK Query API; only the network is faked: `fetch`
// answers like the gateway would with the services' API shapes.
import { describe, expect, it, jest } from '@jest/globals';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { en } from '../../i18n/locales/en';
import { makeStore } from '../../lib/store';
import type { AnalysisRun, CallMetrics } from '../../entities/transcripts';
import { fakeGateway as gateway, json, renderPage as renderAs } from '../../../test/fake-gateway';
import TranscriptAnalysisPage from './transcript-analysis-page';

const i18n = i18next.createInstance();
void i18n.init({ lng: 'en', resources: { en: { translation: en } }, interpolation: { escapeValue: false } });

const FILE = 'f1';
const transcript = {
  _id: 't1',
  status: 'completed',
  audioPath: '',
  file: {
    url: '/api/uploads/x',
    path: 'x',
    filename: 'x',
    originalName: 'call.wav',
    uploadDate: '2026-01-02T10:00:00.000Z',
  },
  metadata: { speakerSegments: [{ _id: 's1', speakerId: 'speaker_0', start: 0, end: 4, text: 'hi', words: [] }] },
};
const metrics: CallMetrics = {
  duration: 65,
  speakers: [
    {
      speakerId: 'speaker_0',
      talkTime: 30,
      share: 0.6,
      words: 80,
      wordsPerMinute: 160,
      turns: 4,
      longestMonologue: 12,
    },
    { speakerId: 'speaker_1', talkTime: 20, share: 0.4, words: 50, wordsPerMinute: 150, turns: 3, longestMonologue: 9 },
  ],
  overlaps: { count: 1, total: 1.5 },
  silence: { total: 15, longest: 6 },
};
const prompt = {
  _id: 'p1',
  name: 'Call review',
  description: '',
  type: 'custom',
  scope: null,
  isGlobal: true,
  version: 2,
  expectedFormat: [{ name: 'score', type: 'integer', range: '1-10', description: 'Score' }],
};
const run = (status: AnalysisRun['status'], extra: Partial<AnalysisRun> = {}): AnalysisRun => ({
  _id: 'r1',
  fileId: 'f1',
  promptId: 'p1',
  promptVersion: 2,
  promptName: 'Call review',
  expectedFormat: prompt.expectedFormat as AnalysisRun['expectedFormat'],
  patternId: null,
  status,
  result: null,
  error: null,
  errorCode: null,
  model: 'fake-model',
  usage: { inputTokens: 0, outputTokens: 0 },
  progress: null,
  durationMs: null,
  createdAt: '2026-01-02T10:00:00.000Z',
  finishedAt: null,
  ...extra,
});

function fakeGateway(runs: () => AnalysisRun[], start: () => { status: number; body: unknown }) {
  const posts: unknown[] = [];
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const request = input as Request;
    const url = new URL(request.url);
    const json = (status: number, body: unknown) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    if (url.pathname === `/api/transcripts/file/${FILE}`) return json(200, transcript);
    if (url.pathname === `/api/analysis/transcripts/${FILE}/metrics`) return json(200, metrics);
    if (url.pathname === '/api/prompts/available')
      return json(200, { items: [prompt], page: 1, pageSize: 200, total: 1, totalPages: 1 });
    if (url.pathname === '/api/analysis/transcripts' && request.method === 'GET') return json(200, runs());
    if (url.pathname === '/api/analysis/transcripts' && request.method === 'POST') {
      posts.push(await request.json());
      const answer = start();
      return json(answer.status, answer.body);
    }
    return json(404, { message: 'Not found' });
  }) as unknown as typeof fetch;
  return posts;
}

function renderPage() {
  render(
    <Provider store={makeStore()}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={[`/transcripts/${FILE}/analysis`]}>
          <Routes>
            <Route path="/transcripts/:id/analysis" element={<TranscriptAnalysisPage />} />
          </Routes>
        </MemoryRouter>
      </I18nextProvider>
    </Provider>,
  );
}

describe('transcript analysis page', () => {
  it('shows the call analytics and says plainly when no chat model is configured', async () => {
    const posts = fakeGateway(
      () => [],
      () => ({ status: 409, body: { message: 'No chat model is configured', code: 'NO_CHAT_MODEL' } }),
    );
    const user = userEvent.setup();
    renderPage();
    expect(await screen.findByTestId('metric-duration')).toHaveTextContent('1:05');
    expect(screen.getAllByTestId('speaker-metrics').map((row) => row.textContent)).toEqual([
      'speaker_00:30 (60%)80160412 s',
      'speaker_10:20 (40%)5015039 s',
    ]);
    expect(screen.getByRole('link', { name: /Ask about this recording/ })).toHaveAttribute(
      'href',
      `/chat?transcript=${FILE}`,
    );
    expect(await screen.findByTestId('runs-empty')).toBeInTheDocument();

    await user.selectOptions(await screen.findByTestId('run-choice'), 'Call review');
    await user.click(screen.getByTestId('run-start'));
    const problem = await screen.findByTestId('run-start-error');
    expect(within(problem).getByRole('link', { name: 'AI Configuration' })).toHaveAttribute('href', '/ai-config');
    expect(posts).toEqual([{ fileId: FILE, promptId: 'p1' }]);
    expect(screen.queryByTestId('scorecard')).toBeNull();
  });

  it('shows progress while a run works, its scorecard once done, and a failed run with its reason', async () => {
    let answers: AnalysisRun[] = [run('running', { progress: { done: 1, total: 3 } })];
    fakeGateway(
      () => answers,
      () => ({ status: 202, body: { _id: 'r1', status: 'pending' } }),
    );
    renderPage();
    expect(await screen.findByTestId('run-progress')).toHaveTextContent('Analysing part 1 of 3…');
    answers = [
      run('failed', { _id: 'r2', error: 'The answer did not match the expected format: score must be at most 10' }),
      run('completed', { result: { score: 8 }, usage: { inputTokens: 10, outputTokens: 2 } }),
    ];
    // The page polls while a run is active; the next answer ends it.
    expect(await screen.findByTestId('scorecard', {}, { timeout: 5000 })).toHaveTextContent('8 / 10');
    expect(screen.getByTestId('run-failed')).toHaveTextContent(
      'This analysis failed: The answer did not match the expected format: score must be at most 10',
    );
    expect(screen.queryByTestId('run-progress')).toBeNull();
  });

  describe('on a platform with no chat model', () => {
    const noModel = () =>
      gateway(({ method, path }) => {
        if (path === `/api/transcripts/file/${FILE}`) return json(transcript);
        if (path === `/api/analysis/transcripts/${FILE}/metrics`) return json(metrics);
        if (path === '/api/prompts/available')
          return json({ items: [prompt], page: 1, pageSize: 200, total: 1, totalPages: 1 });
        if (path === '/api/analysis/transcripts' && method === 'GET')
          return json([run('completed', { result: { score: 8 } })]);
        if (path === '/api/analysis/patterns')
          return json({ items: [], page: 1, pageSize: 200, total: 0, totalPages: 0 });
        if (path === '/api/chat/models') return json({ models: [], builtIn: true });
        return undefined;
      });
    const page = { path: '/transcripts/:id/analysis', url: `/transcripts/${FILE}/analysis` };

    it('tells a USER to ask their administrator, before Run, and keeps Run (and Run again) disabled', async () => {
      const calls = noModel();
      const user = userEvent.setup();
      renderAs(<TranscriptAnalysisPage />, { ...page, role: 'USER' });
      expect(await screen.findByTestId('run-no-model')).toHaveTextContent(
        'Analysis needs an AI model — ask your administrator.',
      );
      expect(screen.queryByRole('link', { name: 'AI Configuration' })).toBeNull();
      await user.selectOptions(screen.getByTestId('run-choice'), 'Call review');
      expect(screen.getByTestId('run-start')).toBeDisabled();
      expect(screen.getByTestId('run-start')).toHaveAccessibleDescription(
        'Analysis needs an AI model — ask your administrator.',
      );
      expect(screen.getByRole('button', { name: 'Run again' })).toBeDisabled();
      expect(calls.filter((call) => call.method === 'POST')).toEqual([]);
    });

    it('points the platform administrator to AI Configuration instead', async () => {
      noModel();
      renderAs(<TranscriptAnalysisPage />, { ...page, role: 'HOST_ADMIN', companyId: null });
      const notice = await screen.findByTestId('run-no-model');
      expect(within(notice).getByRole('link', { name: 'AI Configuration' })).toHaveAttribute('href', '/ai-config');
      expect(screen.getByTestId('run-start')).toBeDisabled();
    });
  });
});
