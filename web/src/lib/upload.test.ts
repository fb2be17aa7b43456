// The upload (an XMLHttpRequest, for progress) goes through the app's session like every other
// call. The network boundary is faked: a stand-in XMLHttpRequest and a fetch for the refresh.
import { describe, expect, it, jest } from '@jest/globals';
import type { Dispatch } from '@reduxjs/toolkit';
import { createSession, type SessionEndReason } from './base-query';
import { FakeXHR } from '../../test/fake-xhr';
import { uploadFile } from './upload';

/** A gateway for uploads: the session is expired until /auth/refresh is answered. */
function fakeGateway() {
  const log: string[] = [];
  let sessionValid = false;
  let releaseRefresh: () => void = () => undefined;
  const refreshed = new Promise<void>((resolve) => {
    releaseRefresh = resolve;
  });
  const fetchFn = jest.fn(async (input: RequestInfo | URL) => {
    log.push(`fetch ${String(input)}`);
    await refreshed;
    sessionValid = true;
    // jsdom has no Response; the session reads only `ok`.
    return { ok: true, status: 200 } as Response;
  }) as unknown as typeof fetch;

  class GatewayXHR extends FakeXHR {
    override send() {
      log.push(`xhr ${this.url}`);
      // Answered after the caller has gone on, as the network would.
      const valid = sessionValid;
      void Promise.resolve().then(() => {
        this.progress(5, 10);
        this.answer(valid ? 201 : 401, valid ? { _id: 'f1', filename: 'a.wav' } : { message: 'Unauthorized' });
      });
    }
  }
  return { log, fetchFn, XHR: GatewayXHR as unknown as typeof XMLHttpRequest, releaseRefresh };
}

function setup() {
  const gateway = fakeGateway();
  const ended: SessionEndReason[] = [];
  const session = createSession({
    baseUrl: '/api',
    fetchFn: gateway.fetchFn,
    onSessionEnd: (reason) => ended.push(reason),
  });
  const upload = (name: string) =>
    uploadFile(new File(['RIFF'], name), {
      session,
      dispatch: jest.fn() as unknown as Dispatch,
      XHR: gateway.XHR,
      onProgress: () => undefined,
    });
  return { gateway, ended, upload };
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !condition(); i += 1) await new Promise((resolve) => setTimeout(resolve, 0));
  if (!condition()) throw new Error('condition never became true');
}

describe('upload with the app session', () => {
  it('two uploads that get a 401 at the same time share one refresh, then each is sent again', async () => {
    const { gateway, ended, upload } = setup();
    const first = upload('a.wav');
    const second = upload('b.wav');
    await until(
      () =>
        gateway.log.filter((line) => line.startsWith('xhr')).length === 2 &&
        gateway.log.some((line) => line.startsWith('fetch')),
    );
    gateway.releaseRefresh();
    const results = await Promise.all([first.done, second.done]);
    expect(results.map((result) => result.ok)).toEqual([true, true]);
    expect(gateway.log.filter((line) => line === 'fetch /api/auth/refresh')).toHaveLength(1);
    expect(gateway.log.filter((line) => line === 'xhr /api/files/upload')).toHaveLength(4);
    expect(ended).toEqual([]);
  });

  it('cancel stops the upload and no retry follows', async () => {
    const { gateway, upload } = setup();
    const handle = upload('a.wav');
    await until(() => gateway.log.some((line) => line.startsWith('fetch')));
    handle.cancel();
    gateway.releaseRefresh();
    expect(await handle.done).toEqual({ ok: false, cancelled: true, status: 0, message: null });
    expect(gateway.log.filter((line) => line.startsWith('xhr'))).toHaveLength(1);
  });
});
