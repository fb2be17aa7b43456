import { describe, expect, it } from '@jest/globals';
import { consumeReturnUrl, decideProtectedAccess, rememberReturnUrl, signedInLanding, validReturnUrl } from './access';
import { memoryStorage } from './storage-keys';

const ORIGIN = 'http://acme.localhost:3000';
const user = (code?: string) =>
  JSON.stringify({ firstName: 'Ada', email: 'ada@acme.test', roles: code ? { role: { code } } : undefined });

describe('route guard', () => {
  it('sends a visitor without a stored user to /signin and remembers where they were going', () => {
    const storage = memoryStorage();
    const decision = decideProtectedAccess('/transcripts/42?tab=words', storage);
    expect(decision).toEqual({ kind: 'signin', returnUrl: '/transcripts/42?tab=words' });
    rememberReturnUrl(storage, decision);
    expect(storage.getItem('returnUrl')).toBe('/transcripts/42?tab=words');
  });

  it.each(['/companies', '/features', '/prompts', '/pricing', '/b2c-users', '/audit-logs'])(
    'sends a non-HOST_ADMIN from %s to /chat and lets HOST_ADMIN in',
    (path) => {
      for (const role of ['ADMIN', 'USER', 'CALLER']) {
        expect(decideProtectedAccess(`${path}?page=2`, memoryStorage({ user: user(role) }))).toEqual({
          kind: 'redirect',
          to: '/chat',
          forbidden: { path, roles: ['HOST_ADMIN'] },
        });
      }
      expect(decideProtectedAccess(path, memoryStorage({ user: user('HOST_ADMIN') }))).toEqual({ kind: 'allow' });
    },
  );

  it('sends a user whose stored data cannot be read from a restricted path to /chat', () => {
    expect(decideProtectedAccess('/companies', memoryStorage({ user: '{not json' }))).toEqual({
      kind: 'redirect',
      to: '/chat',
    });
    expect(decideProtectedAccess('/prompts', memoryStorage({ user: '"a string"' }))).toEqual({
      kind: 'redirect',
      to: '/chat',
    });
  });

  it('sends a user without a role away from restricted paths', () => {
    expect(decideProtectedAccess('/audit-logs', memoryStorage({ user: user() }))).toEqual({
      kind: 'redirect',
      to: '/chat',
      forbidden: { path: '/audit-logs', roles: ['HOST_ADMIN'] },
    });
  });

  it('enforces the other role lists too (users, invoice, custom GPTs, clients, AI features)', () => {
    const as = (role: string) => memoryStorage({ user: user(role) });
    expect(decideProtectedAccess('/users', as('USER')).kind).toBe('redirect');
    expect(decideProtectedAccess('/users', as('ADMIN')).kind).toBe('allow');
    const invoice = { path: '/invoice', roles: ['HOST_ADMIN', 'ADMIN'] };
    expect(decideProtectedAccess('/invoice?month=2026-03', as('USER'))).toEqual({
      kind: 'redirect',
      to: '/chat',
      forbidden: invoice,
    });
    expect(decideProtectedAccess('/invoice', as('CALLER'))).toEqual({
      kind: 'redirect',
      to: '/chat',
      forbidden: invoice,
    });
    expect(decideProtectedAccess('/invoice?month=2026-03', as('ADMIN')).kind).toBe('allow');
    expect(decideProtectedAccess('/invoice', as('HOST_ADMIN')).kind).toBe('allow');
    expect(decideProtectedAccess('/custom-gpts/7/edit', as('CALLER')).kind).toBe('redirect');
    expect(decideProtectedAccess('/clients', as('CALLER')).kind).toBe('allow');
    expect(decideProtectedAccess('/client/9', as('USER')).kind).toBe('redirect');
    expect(decideProtectedAccess('/client/9', as('HOST_ADMIN')).kind).toBe('allow');
    expect(decideProtectedAccess('/ai-features/forest-ai', as('ADMIN')).kind).toBe('allow');
    expect(decideProtectedAccess('/ai-features/forest-ai', as('HOST_ADMIN')).kind).toBe('redirect');
  });

  it('lets any signed-in user open unrestricted pages, and does not mistake prefixes', () => {
    const storage = memoryStorage({ user: user('USER') });
    for (const path of ['/', '/chat', '/transcripts', '/profile', '/calendar', '/companies-news', '/usersettings']) {
      expect(decideProtectedAccess(path, storage)).toEqual({ kind: 'allow' });
    }
  });
});

describe('return URL (spec parts 4 and 5)', () => {
  it('is read once and removed; the default is /', () => {
    const storage = memoryStorage({ user: user('USER'), returnUrl: '/transcripts/42?tab=words' });
    expect(consumeReturnUrl(storage, ORIGIN, '/')).toBe('/transcripts/42?tab=words');
    expect(storage.getItem('returnUrl')).toBeNull();
    expect(consumeReturnUrl(storage, ORIGIN, '/')).toBe('/');
  });

  it('is valid for a restricted path only when the stored user is HOST_ADMIN', () => {
    expect(validReturnUrl(memoryStorage({ user: user('HOST_ADMIN'), returnUrl: '/companies' }), ORIGIN)).toBe(
      '/companies',
    );
    expect(validReturnUrl(memoryStorage({ user: user('ADMIN'), returnUrl: '/companies' }), ORIGIN)).toBeNull();
    expect(validReturnUrl(memoryStorage({ user: user('USER'), returnUrl: '/audit-logs?page=2' }), ORIGIN)).toBeNull();
  });

  it('is invalid and removed when the stored user data cannot be read', () => {
    const storage = memoryStorage({ user: '{broken', returnUrl: '/transcripts' });
    expect(validReturnUrl(storage, ORIGIN)).toBeNull();
    expect(storage.getItem('returnUrl')).toBeNull();
  });

  it('never leads to another site or back to a sign-in page', () => {
    const as = (returnUrl: string) => memoryStorage({ user: user('HOST_ADMIN'), returnUrl });
    expect(validReturnUrl(as('https://evil.example/phish'), ORIGIN)).toBeNull();
    expect(validReturnUrl(as('//evil.example/x'), ORIGIN)).toBeNull();
    expect(validReturnUrl(as('http://[bad'), ORIGIN)).toBeNull();
    expect(validReturnUrl(as('/signin'), ORIGIN)).toBeNull();
    expect(validReturnUrl(as(`${ORIGIN}/prompts`), ORIGIN)).toBe('/prompts');
  });

  it('takes a signed-in user who opens /signin to the valid return URL, else /chat', () => {
    expect(signedInLanding(memoryStorage({ user: user('USER'), returnUrl: '/transcripts' }), ORIGIN)).toBe(
      '/transcripts',
    );
    expect(signedInLanding(memoryStorage({ user: user('USER'), returnUrl: '/companies' }), ORIGIN)).toBe('/chat');
    expect(signedInLanding(memoryStorage({ user: user('USER') }), ORIGIN)).toBe('/chat');
    expect(signedInLanding(memoryStorage(), ORIGIN)).toBeNull();
  });
});
