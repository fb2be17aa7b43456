/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// Encryption progress per service on the ADMIN's /data-policies, with the app's store and RTK
// Query API; only `fetch` is faked. Each answer of the fake moves the services on, as the
// polling would see them.
import { describe, expect, it } from '@jest/globals';
import { screen, within } from '@testing-library/react';
import type { CompanyEncryptionProgress, CompanyPolicies } from '@earshot/contracts';
import { fakeGateway, json, renderPage } from '../../../test/fake-gateway';
import DataPoliciesPage from './data-policies-page';

const ID = 'c0000000-0000-4000-8000-0000000000e1';
const policies: CompanyPolicies = {
  redaction: 'text',
  keepOriginal: false,
  encryption: true,
  retention: { recordingsDays: null, chatsDays: null, auditDays: null },
};
const at = '2026-11-26T07:00:00.000Z';
const running: CompanyEncryptionProgress = {
  encryption: true,
  masterKeyConfigured: true,
  services: [
    { service: 'file', state: 'running', done: 120, total: 300, updatedAt: at },
    { service: 'transcription', state: 'done', done: 40, total: 40, updatedAt: at },
    { service: 'chat', state: 'idle', done: 0, total: 0, updatedAt: null },
    { service: 'prompt', state: 'running', done: 0, total: 8, updatedAt: at },
  ],
};
const finished: CompanyEncryptionProgress = {
  encryption: true,
  masterKeyConfigured: true,
  services: running.services.map((service) => ({ ...service, state: 'done', done: service.total })),
};

function gateway(answers: CompanyEncryptionProgress[]) {
  return fakeGateway((call) => {
    if (call.path === `/api/companies/${ID}/policies`) return json(policies);
    if (call.path === `/api/companies/${ID}/encryption`) return json(answers.length > 1 ? answers.shift() : answers[0]);
    return undefined;
  });
}

describe('encryption progress', () => {
  it('shows a bar per running service with “done of total”, and asks again until every service says Encrypted', async () => {
    const calls = gateway([running, finished]);
    renderPage(<DataPoliciesPage />, { path: '/data-policies', url: '/data-policies', role: 'ADMIN', companyId: ID });
    const recordings = await screen.findByTestId('encryption-file');
    expect(recordings).toHaveTextContent('Recordings 120 of 300');
    expect(within(recordings).getByRole('progressbar', { name: 'Recordings 120 of 300' })).toHaveAttribute(
      'value',
      '120',
    );
    expect(screen.getByTestId('encryption-transcription')).toHaveTextContent('Transcripts: Encrypted');
    expect(within(screen.getByTestId('encryption-transcription')).queryByRole('progressbar')).toBeNull();
    expect(screen.getByTestId('encryption-chat')).toHaveTextContent(
      'Knowledge files & assistant copies: waiting to start',
    );
    expect(screen.getByTestId('encryption-prompt')).toHaveTextContent('Analysis copies 0 of 8');

    // The next poll finds every service done: the bars go, each says Encrypted, and polling stops.
    expect(await screen.findByText('Recordings: Encrypted', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.queryAllByRole('progressbar')).toHaveLength(0);
    for (const name of ['Transcripts', 'Knowledge files & assistant copies', 'Analysis copies'])
      expect(screen.getByText(`${name}: Encrypted`)).toBeInTheDocument();
    expect(calls.filter((call) => call.path.endsWith('/encryption'))).toHaveLength(2);
  }, 15_000);
});
