/**
 * @jest-environment node
 */
// Node's own fetch classes (Request/Response) stand in for the browser's.
import { describe, expect, it, jest } from '@jest/globals';
import type { BaseQueryApi } from '@reduxjs/toolkit/query';
import { createSession, createSessionBaseQuery, SESSION_ERRORS, type SessionEndReason } from './base-query';

function fakeApi(): BaseQueryApi {
  return {
    signal: new AbortController().signal,
    abort: () => undefined,
    dispatch: jest.fn() as unknown as BaseQueryApi['dispatch'],
    getState: () => ({}),
    extra: undefined,
    endpoint: 'test',
    type: 'query',
  };
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !condition(); i += 1) await new Promise((resolve) => setImmediate(resolve));
  if (!condition()) throw new Error('condition never became true');
}

/** A gateway stand-in: a session that is expired until /auth/refresh succeeds. */
function fakeGateway(
  options: {
    refreshStatus?: number;
    refreshBody?: unknown;
    staysUnauthorised?: boolean;
    holdRefresh?: boolean;
    holdFirstOf?: string;
  } = {},
) {
  const requests: Request[] = [];
  let sessionValid = false;
  let release: () => void = () => undefined;
  const refreshGate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let releaseHeld: () => void = () => undefined;
  const heldGate = new Promise<void>((resolve) => {
    releaseHeld = resolve;
  });
  let held = false;
  const fetchFn = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    requests.push(request);
    const path = new URL(request.url).pathname;
    if (path === '/api/auth/refresh') {
      if (options.holdRefresh) await refreshGate;
      const status = options.refreshStatus ?? 200;
      if (status === 200 && !options.staysUnauthorised) sessionValid = true;
      return status === 200
        ? json(200, { token: 'new' })
        : json(status, options.refreshBody ?? { message: 'Invalid refresh token' });
    }
    if (path === '/api/auth/login') return json(401, { message: 'Invalid email or password' });
    const answer = sessionValid ? json(200, { path }) : json(401, { message: 'Unauthorized' });
    if (path === options.holdFirstOf && !held) {
      held = true; // answered (401) now, delivered later
      await heldGate;
    }
    return answer;
  }) as typeof fetch;
  const count = (path: string) => requests.filter((r) => new URL(r.url).pathname === path).length;
  return { fetchFn, requests, count, release: () => release(), releaseHeld: () => releaseHeld() };
}

const baseUrl = 'http://console.test/api';

function setup(gateway: ReturnType<typeof fakeGateway>) {
  const ended: SessionEndReason[] = [];
  const session = createSession({ baseUrl, fetchFn: gateway.fetchFn, onSessionEnd: (reason) => ended.push(reason) });
  const baseQuery = createSessionBaseQuery(session, { baseUrl, fetchFn: gateway.fetchFn });
  return { baseQuery, session, ended };
}

/** A call the base query cannot make (a streamed reply, an upload): plain fetch through the session. */
function plainCall(
  session: ReturnType<typeof setup>['session'],
  gateway: ReturnType<typeof fakeGateway>,
  path: string,
) {
  return session.run(() => gateway.fetchFn(`${baseUrl}${path}`, { method: 'POST' }), {
    unauthorised: (response) => response.status === 401,
    ended: (reason) => new Response(null, { status: 401, statusText: reason }),
    dispatch: jest.fn() as unknown as BaseQueryApi['dispatch'],
  });
}

describe('session base query', () => {
  it('refreshes once for two requests that get a 401 at the same time, then retries both', async () => {
    const gateway = fakeGateway({ holdRefresh: true });
    const { baseQuery, ended } = setup(gateway);
    const both = Promise.all([
      baseQuery('/users/profile', fakeApi(), {}),
      baseQuery({ url: '/transcripts', method: 'GET' }, fakeApi(), {}),
    ]);
    // Both have had their 401 and one refresh is under way before it answers.
    await until(
      () =>
        gateway.count('/api/auth/refresh') === 1 &&
        gateway.count('/api/users/profile') === 1 &&
        gateway.count('/api/transcripts') === 1,
    );
    gateway.release();
    const [profile, transcripts] = await both;
    expect(gateway.count('/api/auth/refresh')).toBe(1);
    expect(profile).toEqual({ data: { path: '/api/users/profile' }, meta: expect.anything() });
    expect(transcripts.data).toEqual({ path: '/api/transcripts' });
    expect(gateway.count('/api/users/profile')).toBe(2);
    expect(ended).toEqual([]);
  });

  it('a streamed reply, an upload and an RTK Query call that get a 401 at the same time share one refresh', async () => {
    const gateway = fakeGateway({ holdRefresh: true });
    const { baseQuery, session, ended } = setup(gateway);
    const all = Promise.all([
      plainCall(session, gateway, '/chat/conversations/c1/chat/stream'),
      plainCall(session, gateway, '/files/upload'),
      baseQuery('/users/profile', fakeApi(), {}),
    ]);
    await until(
      () =>
        gateway.count('/api/auth/refresh') === 1 &&
        gateway.count('/api/files/upload') === 1 &&
        gateway.count('/api/users/profile') === 1,
    );
    gateway.release();
    const [stream, upload, profile] = await all;
    expect([stream.status, upload.status]).toEqual([200, 200]);
    expect(profile.data).toEqual({ path: '/api/users/profile' });
    expect(gateway.count('/api/auth/refresh')).toBe(1);
    expect(gateway.count('/api/chat/conversations/c1/chat/stream')).toBe(2);
    expect(gateway.count('/api/files/upload')).toBe(2);
    expect(ended).toEqual([]);
  });

  it('a plain call whose session cannot be renewed ends the session once, like the base query', async () => {
    const gateway = fakeGateway({ refreshStatus: 401 });
    const { session, ended } = setup(gateway);
    const answer = await plainCall(session, gateway, '/files/upload');
    expect(answer.statusText).toBe(SESSION_ERRORS.refreshFailed);
    expect(ended).toEqual([SESSION_ERRORS.refreshFailed]);
    expect(gateway.count('/api/files/upload')).toBe(1);
  });

  it('sends cookies and the CSRF header on every call, the refresh included', async () => {
    const gateway = fakeGateway();
    const { baseQuery } = setup(gateway);
    await baseQuery({ url: '/chat/conversations', method: 'POST', body: { title: 'x' } }, fakeApi(), {});
    expect(gateway.requests.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual([
      'POST /api/chat/conversations',
      'POST /api/auth/refresh',
      'POST /api/chat/conversations',
    ]);
    for (const request of gateway.requests) {
      expect(request.headers.get('X-Requested-With')).toBe('XMLHttpRequest');
      expect(request.credentials).toBe('include');
    }
  });

  it("ends the session with 'Failed to refresh token' when the refresh is refused", async () => {
    const gateway = fakeGateway({ refreshStatus: 401 });
    const { baseQuery, ended } = setup(gateway);
    const result = await baseQuery('/users/profile', fakeApi(), {});
    expect(result.error).toEqual({ status: 401, data: { message: SESSION_ERRORS.refreshFailed } });
    expect(SESSION_ERRORS.refreshFailed).toBe('Failed to refresh token');
    expect(ended).toEqual(['Failed to refresh token']);
    expect(gateway.count('/api/users/profile')).toBe(1);
  });

  it('a refresh refused because the company is suspended ends the session with that reason', async () => {
    const gateway = fakeGateway({
      refreshStatus: 403,
      refreshBody: {
        message: "Your company's access is suspended: contact your administrator",
        code: 'COMPANY_SUSPENDED',
      },
    });
    const { baseQuery, ended } = setup(gateway);
    const result = await baseQuery('/users/profile', fakeApi(), {});
    expect(result.error).toEqual({
      status: 401,
      data: { message: "Your company's access is suspended: contact your administrator" },
    });
    expect(ended).toEqual([SESSION_ERRORS.companySuspended]);
  });

  it("ends the session with 'Request failed after token refresh' when the retry is a 401 again", async () => {
    const gateway = fakeGateway({ staysUnauthorised: true });
    const { baseQuery, ended } = setup(gateway);
    const result = await baseQuery('/users/profile', fakeApi(), {});
    expect(result.error).toEqual({ status: 401, data: { message: 'Request failed after token refresh' } });
    expect(ended).toEqual(['Request failed after token refresh']);
    expect(gateway.count('/api/auth/refresh')).toBe(1);
    expect(gateway.count('/api/users/profile')).toBe(2);
  });

  it('a silent probe refreshes and retries like any call but never ends the session', async () => {
    const refused = fakeGateway({ refreshStatus: 401 });
    const first = setup(refused);
    const result = await first.baseQuery('/users/profile', fakeApi(), { silent: true });
    expect(result.error).toMatchObject({ status: 401 });
    expect(refused.count('/api/auth/refresh')).toBe(1);
    expect(first.ended).toEqual([]);
    const stuck = fakeGateway({ staysUnauthorised: true });
    const second = setup(stuck);
    await second.baseQuery('/users/profile', fakeApi(), { silent: true });
    expect(second.ended).toEqual([]);
    const working = fakeGateway();
    const third = setup(working);
    expect((await third.baseQuery('/users/profile', fakeApi(), { silent: true })).data).toEqual({
      path: '/api/users/profile',
    });
  });

  it('does not refresh when signing in is refused: that 401 is the answer', async () => {
    const gateway = fakeGateway();
    const { baseQuery, ended } = setup(gateway);
    const result = await baseQuery(
      { url: '/auth/login', method: 'POST', body: { email: 'a@b.c', password: 'x' } },
      fakeApi(),
      {},
    );
    expect(result.error).toMatchObject({ status: 401, data: { message: 'Invalid email or password' } });
    expect(gateway.count('/api/auth/refresh')).toBe(0);
    expect(ended).toEqual([]);
  });

  it('retries without a second refresh when the 401 arrives after another request refreshed', async () => {
    const gateway = fakeGateway({ holdFirstOf: '/api/transcripts' });
    const { baseQuery } = setup(gateway);
    const slow = baseQuery('/transcripts', fakeApi(), {}); // its 401 is on the way
    await until(() => gateway.count('/api/transcripts') === 1);
    const fast = await baseQuery('/users/profile', fakeApi(), {}); // 401, refresh, retry
    expect(fast.data).toEqual({ path: '/api/users/profile' });
    gateway.releaseHeld();
    const later = await slow;
    expect(later.data).toEqual({ path: '/api/transcripts' });
    expect(gateway.count('/api/auth/refresh')).toBe(1);
    expect(gateway.count('/api/transcripts')).toBe(2);
  });
});
