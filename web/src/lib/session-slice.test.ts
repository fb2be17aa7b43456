import { describe, expect, it } from '@jest/globals';
import { memoryStorage } from './storage-keys';
import { clearSessionStorage, initialSession, sessionSlice, signedIn, signedOut } from './session-slice';

describe('session state', () => {
  it('sign-out clears token, refreshToken, user and returnUrl, and keeps the person’s preferences', () => {
    const storage = memoryStorage({
      token: 'old',
      refreshToken: 'old',
      user: '{"email":"a@b.c"}',
      returnUrl: '/transcripts',
      theme: 'dark',
      preferredLanguage: 'lv',
      'pwa-prompt-dismissed': '1',
    });
    clearSessionStorage(storage);
    for (const key of ['token', 'refreshToken', 'user', 'returnUrl'])
      expect([key, storage.getItem(key)]).toEqual([key, null]);
    expect([
      storage.getItem('theme'),
      storage.getItem('preferredLanguage'),
      storage.getItem('pwa-prompt-dismissed'),
    ]).toEqual(['dark', 'lv', '1']);
  });

  it('starts from the stored user, or none when it is missing or unreadable', () => {
    expect(initialSession(memoryStorage({ user: '{"email":"a@b.c"}' })).user).toEqual({ email: 'a@b.c' });
    expect(initialSession(memoryStorage({ user: '{oops' })).user).toBeNull();
    expect(initialSession(memoryStorage()).user).toBeNull();
  });

  it('keeps why a session ended until the next sign-in', () => {
    const ended = sessionSlice.reducer(
      { user: { email: 'a@b.c' }, notice: null },
      signedOut('Failed to refresh token'),
    );
    expect(ended).toEqual({ user: null, notice: 'Failed to refresh token' });
    expect(sessionSlice.reducer(ended, signedIn({ email: 'a@b.c' }))).toEqual({
      user: { email: 'a@b.c' },
      notice: null,
    });
  });
});
