// The bulk upload's queue over the real upload (lib/upload.ts) with a stand-in XMLHttpRequest:
// each file its own request with its own progress, at most three at a time, cancel (a queued file
// is never sent, a running one is aborted), and retry of a refusal with the fields it was chosen with.
import { describe, expect, it, jest } from '@jest/globals';
import type { Dispatch } from '@reduxjs/toolkit';
import { createSession } from '../../lib/base-query';
import { uploadFile } from '../../lib/upload';
import { FakeXHR } from '../../../test/fake-xhr';
import { UploadQueue, queueSummary, type QueueItem } from './upload-queue';

class QueueXHR extends FakeXHR {
  static sent: QueueXHR[] = [];
  override send(body: FormData) {
    super.send(body);
    QueueXHR.sent.push(this);
  }
  get fileName(): string {
    return (this.body?.get('file') as File | null)?.name ?? '';
  }
}

const session = createSession({
  baseUrl: '/api',
  fetchFn: jest.fn() as unknown as typeof fetch,
  onSessionEnd: () => undefined,
});

function setup() {
  QueueXHR.sent = [];
  const settled: QueueItem[] = [];
  const queue = new UploadQueue(
    (item, onProgress) =>
      uploadFile(item.file, {
        session,
        dispatch: jest.fn() as unknown as Dispatch,
        XHR: QueueXHR as unknown as typeof XMLHttpRequest,
        companyId: item.fields.companyId,
        fields: {
          ...(item.fields.language ? { language: item.fields.language } : {}),
          ...(item.fields.speakers ? { speakers: item.fields.speakers } : {}),
        },
        onProgress,
      }),
    (item) => settled.push(item),
  );
  const files = (count: number) =>
    Array.from({ length: count }, (_, index) => new File(['RIFF'], `call-${index + 1}.wav`, { type: 'audio/wav' }));
  const byName = (name: string) => queue.snapshot().find((item) => item.file.name === name);
  const xhrOf = (name: string) => QueueXHR.sent.filter((xhr) => xhr.fileName === name).at(-1);
  return { queue, settled, files, byName, xhrOf };
}

/** Lets the upload's promise chain (the session's run) settle. */
async function flush(): Promise<void> {
  for (let i = 0; i < 10; i += 1) await Promise.resolve();
}

const stored = (name: string) => ({
  _id: `id-${name}`,
  url: '',
  path: '',
  filename: name,
  originalName: name,
  size: 4,
  mimeType: 'audio/wav',
  uploadDate: '2026-01-01T00:00:00.000Z',
  status: 'completed',
});

describe('bulk upload queue', () => {
  it('sends 50 files three at a time, each with its own progress, and starts the next as one ends', async () => {
    const { queue, files, byName, xhrOf } = setup();
    queue.add(files(50), { language: 'et', speakers: '2' });
    await flush();
    expect(QueueXHR.sent.map((xhr) => xhr.fileName)).toEqual(['call-1.wav', 'call-2.wav', 'call-3.wav']);
    expect(queueSummary(queue.snapshot())).toMatchObject({ uploading: 3, queued: 47 });
    // The batch's fields go with every file, before it.
    const form = xhrOf('call-2.wav')!.body!;
    expect([...form.keys()]).toEqual(['language', 'speakers', 'file']);
    expect(form.get('language')).toBe('et');
    expect(form.get('speakers')).toBe('2');

    xhrOf('call-2.wav')!.progress(30, 120);
    expect(byName('call-2.wav')?.progress).toBe(0.25);
    expect(byName('call-1.wav')?.progress).toBe(0);

    xhrOf('call-2.wav')!.answer(201, stored('call-2.wav'));
    await flush();
    expect(byName('call-2.wav')).toMatchObject({ status: 'done', progress: 1, fileId: 'id-call-2.wav' });
    expect(QueueXHR.sent.map((xhr) => xhr.fileName)).toEqual(['call-1.wav', 'call-2.wav', 'call-3.wav', 'call-4.wav']);
    expect(queueSummary(queue.snapshot()).uploading).toBe(3);

    // Everything answered, in batches of at most three: all 50 arrive, never more than 3 at once.
    let answered = 1;
    while (answered < 50) {
      const open = QueueXHR.sent.filter((xhr) => xhr.status === 0);
      expect(open.length).toBeLessThanOrEqual(3);
      for (const xhr of open) xhr.answer(201, stored(xhr.fileName));
      answered += open.length;
      await flush();
    }
    expect(queueSummary(queue.snapshot())).toMatchObject({ done: 50, uploading: 0, queued: 0 });
    expect(QueueXHR.sent).toHaveLength(50);
  });

  it('cancel aborts a running upload and never sends a queued one; cancelled files can be sent again', async () => {
    const { queue, settled, files, byName, xhrOf } = setup();
    queue.add(files(5), {});
    await flush();
    queue.cancel(byName('call-5.wav')!.id);
    expect(byName('call-5.wav')?.status).toBe('cancelled');
    queue.cancel(byName('call-1.wav')!.id);
    await flush();
    expect(xhrOf('call-1.wav')?.aborted).toBe(true);
    expect(byName('call-1.wav')?.status).toBe('cancelled');
    // The freed place goes to the next queued file; the cancelled fifth is skipped.
    expect(QueueXHR.sent.map((xhr) => xhr.fileName)).toEqual(['call-1.wav', 'call-2.wav', 'call-3.wav', 'call-4.wav']);
    expect(settled.map((item) => [item.file.name, item.status])).toEqual([
      ['call-5.wav', 'cancelled'],
      ['call-1.wav', 'cancelled'],
    ]);

    queue.retry(byName('call-5.wav')!.id);
    for (const name of ['call-2.wav', 'call-3.wav', 'call-4.wav']) xhrOf(name)!.answer(201, stored(name));
    await flush();
    expect(xhrOf('call-5.wav')).toBeDefined();
  });

  it('keeps a refused file with the server’s message, and Retry sends it again with the same fields', async () => {
    const { queue, settled, files, byName, xhrOf } = setup();
    queue.add(files(2), { language: 'fr', companyId: 'c0000000-0000-4000-8000-000000000001' });
    await flush();
    xhrOf('call-1.wav')!.answer(400, { message: 'Only audio files can be uploaded', code: 'VALIDATION_ERROR' });
    xhrOf('call-2.wav')!.answer(201, stored('call-2.wav'));
    await flush();
    expect(byName('call-1.wav')).toMatchObject({
      status: 'failed',
      message: 'Only audio files can be uploaded',
      httpStatus: 400,
    });
    expect(settled.map((item) => item.status).sort()).toEqual(['done', 'failed']);

    const refused = xhrOf('call-1.wav')!;
    queue.retry(byName('call-1.wav')!.id);
    await flush();
    const again = xhrOf('call-1.wav')!;
    expect(again).not.toBe(refused);
    expect(again.url).toBe('/api/files/upload?companyId=c0000000-0000-4000-8000-000000000001');
    expect(again.body?.get('language')).toBe('fr');
    expect(byName('call-1.wav')).toMatchObject({ status: 'uploading', message: null });
    // Clearing the finished leaves what is still being sent.
    queue.dismiss();
    expect(queue.snapshot().map((item) => item.file.name)).toEqual(['call-1.wav']);
  });

  it('retries the failed files of a batch; a network failure has no message', async () => {
    const { queue, files, byName, xhrOf } = setup();
    queue.add(files(1), { speakers: '4' });
    await flush();
    const first = xhrOf('call-1.wav')!;
    first.onerror?.();
    await flush();
    expect(byName('call-1.wav')).toMatchObject({ status: 'failed', message: null, httpStatus: 0 });
    queue.retryFailed();
    await flush();
    const again = xhrOf('call-1.wav')!;
    expect(again).not.toBe(first);
    expect(again.body?.get('speakers')).toBe('4');
    expect(again.url).toBe('/api/files/upload');
    again.answer(201, stored('call-1.wav'));
    await flush();
    expect(byName('call-1.wav')?.status).toBe('done');
    expect(queue.snapshot()).toHaveLength(1);
  });
});
