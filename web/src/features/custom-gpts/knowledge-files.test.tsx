/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// A GPT's edit page with its knowledge files: statuses as the server reports them (asked again
// until every file is ready or failed), uploads with progress, the server's refusals next to the
// file, delete after confirming. The network is faked: fetch and a stand-in XMLHttpRequest.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeGateway, json, renderPage } from '../../../test/fake-gateway';
import { FakeXHR as StandInXHR } from '../../../test/fake-xhr';
import CustomGptEditPage from './custom-gpt-edit-page';
import type { CustomGpt, KnowledgeFile } from './model';

const GPT = 'd0000000-0000-4000-8000-000000000001';
const gpt: CustomGpt = {
  _id: GPT,
  name: 'Handbook',
  description: null,
  avatar: null,
  instructions: 'Answer from the handbook.',
  modelId: null,
  starters: [],
  searchTranscripts: false,
  visibility: 'company',
  userIds: [],
  enabled: true,
  scope: 'company',
  companyIds: [],
  companyId: 'c0000000-0000-4000-8000-000000000001',
  createdBy: 'me',
  createdAt: '2026-01-02T10:00:00.000Z',
  updatedAt: '2026-01-02T10:00:00.000Z',
  fileCount: 3,
};
const file = (id: number, name: string, over: Partial<KnowledgeFile>): KnowledgeFile => ({
  _id: `f0000000-0000-4000-8000-00000000000${id}`,
  name,
  mimeType: 'application/pdf',
  size: 2048,
  status: 'ready',
  error: null,
  pages: null,
  chunks: 0,
  progress: 0,
  createdAt: '2026-01-02T10:00:00.000Z',
  ...over,
});

/** Uploads answered by the test: each send waits until `answer` is called for it. */
class FakeXHR extends StandInXHR {
  static sent: FakeXHR[] = [];
  override send(body?: FormData) {
    super.send(body);
    FakeXHR.sent.push(this);
  }
}

const realXHR = globalThis.XMLHttpRequest;
beforeEach(() => {
  FakeXHR.sent = [];
  globalThis.XMLHttpRequest = FakeXHR as unknown as typeof XMLHttpRequest;
});
afterEach(() => {
  globalThis.XMLHttpRequest = realXHR;
  localStorage.clear();
});

const rowOf = (name: string) =>
  screen.getAllByTestId(/^knowledge-(file|upload)$/).find((row) => row.textContent?.includes(name))!;

describe('knowledge files', () => {
  it('shows each status with its progress or reason, and asks again until every file is ready or failed', async () => {
    let listed = 0;
    const calls = fakeGateway((call) => {
      if (call.path === `/api/custom-gpt/${GPT}`) return json(gpt);
      if (call.path === '/api/chat/models') return json({ models: [], builtIn: true });
      if (call.path === `/api/custom-gpt/${GPT}/files`) {
        listed += 1;
        return json([
          file(
            1,
            'manual.pdf',
            listed === 1 ? { status: 'indexing', progress: 60, pages: 12 } : { status: 'ready', pages: 12, chunks: 30 },
          ),
          file(2, 'scan.pdf', { status: 'failed', error: 'This PDF has no text layer' }),
          file(3, 'notes.md', { status: 'ready', mimeType: 'text/markdown', chunks: 4 }),
        ]);
      }
      return undefined;
    });
    renderPage(<CustomGptEditPage />, {
      path: '/custom-gpts/:id/edit',
      url: `/custom-gpts/${GPT}/edit`,
      role: 'ADMIN',
    });
    await screen.findAllByTestId('knowledge-file');
    const manual = rowOf('manual.pdf');
    expect(within(manual).getByTestId('knowledge-status')).toHaveTextContent('Indexing');
    expect(within(manual).getByRole('progressbar', { name: 'Processing manual.pdf' })).toHaveAttribute('value', '60');
    expect(within(rowOf('scan.pdf')).getByTestId('knowledge-error')).toHaveTextContent('This PDF has no text layer');
    expect(within(rowOf('notes.md')).getByText('Passages: 4')).toBeInTheDocument();

    // Polled while manual.pdf is being indexed; once all are settled the page stops asking.
    await waitFor(
      () => expect(within(rowOf('manual.pdf')).getByTestId('knowledge-status')).toHaveTextContent('Ready'),
      { timeout: 10_000 },
    );
    expect(within(rowOf('manual.pdf')).getByText('Pages: 12 · passages: 30')).toBeInTheDocument();
    expect(within(rowOf('manual.pdf')).queryByRole('progressbar')).toBeNull();
    expect(calls.filter((call) => call.path.endsWith('/files')).length).toBe(2);
  }, 20_000);

  it('uploads several files one after another with progress, keeps the server’s refusals next to their files, and deletes after confirming', async () => {
    let files: KnowledgeFile[] = [];
    const calls = fakeGateway((call) => {
      if (call.path === `/api/custom-gpt/${GPT}`) return json(gpt);
      if (call.path === '/api/chat/models') return json({ models: [], builtIn: true });
      if (call.path === `/api/custom-gpt/${GPT}/files`) return json(files);
      if (call.path === `/api/custom-gpt/${GPT}/files/${file(1, '', {})._id}` && call.method === 'DELETE')
        return json({ message: 'Knowledge file deleted' });
      return undefined;
    });
    const user = userEvent.setup();
    renderPage(<CustomGptEditPage />, {
      path: '/custom-gpts/:id/edit',
      url: `/custom-gpts/${GPT}/edit`,
      role: 'ADMIN',
    });
    expect(await screen.findByText('No knowledge files yet')).toBeInTheDocument();

    const chosen = [
      new File(['%PDF-1.7'], 'guide.pdf', { type: 'application/pdf' }),
      new File(['plain words'], 'fake.pdf', { type: 'application/pdf' }),
      new File(['x'.repeat(10)], 'huge.txt', { type: 'text/plain' }),
    ];
    await user.upload(screen.getByTestId('knowledge-input'), chosen);
    // One at a time: the first is being sent, the others wait.
    expect(FakeXHR.sent).toHaveLength(1);
    const [first] = FakeXHR.sent as [FakeXHR];
    expect(first.url).toBe(`/api/custom-gpt/${GPT}/files?type=knowledge`);
    expect((first.body!.get('file') as File).name).toBe('guide.pdf');
    expect(within(rowOf('fake.pdf')).getByText('Waiting to upload')).toBeInTheDocument();
    first.progress(512, 1024);
    expect(await within(rowOf('guide.pdf')).findByText('Uploading: 50%')).toBeInTheDocument();

    files = [file(1, 'guide.pdf', { status: 'queued' })];
    first.answer(201, files[0]);
    await waitFor(() => expect(FakeXHR.sent).toHaveLength(2));
    expect(await screen.findByTestId('knowledge-file')).toHaveTextContent('Queued');
    FakeXHR.sent[1]!.answer(415, {
      message: 'The file content does not match its name or type',
      code: 'UNSUPPORTED_MEDIA_TYPE',
    });
    await waitFor(() => expect(FakeXHR.sent).toHaveLength(3));
    FakeXHR.sent[2]!.answer(413, { message: 'A knowledge file can be at most 20 MB', code: 'PAYLOAD_TOO_LARGE' });
    expect(await within(rowOf('huge.txt')).findByTestId('upload-error')).toHaveTextContent(
      'A knowledge file can be at most 20 MB',
    );
    expect(within(rowOf('fake.pdf')).getByTestId('upload-error')).toHaveTextContent(
      'The file content does not match its name or type',
    );
    await user.click(within(rowOf('fake.pdf')).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText('fake.pdf')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Delete the file guide.pdf' }));
    expect(screen.getByText('Delete the file guide.pdf? The assistant stops answering from it.')).toBeInTheDocument();
    files = [];
    await user.click(screen.getByTestId('confirm-yes'));
    await waitFor(() => expect(screen.queryByTestId('knowledge-file')).toBeNull());
    // The refusal stays until it is dismissed.
    expect(within(rowOf('huge.txt')).getByTestId('upload-error')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'DELETE').map((call) => call.path)).toEqual([
      `/api/custom-gpt/${GPT}/files/${file(1, '', {})._id}`,
    ]);
  }, 20_000);
});
