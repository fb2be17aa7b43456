import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { readStoredUser, type StoredUser } from './stored-user';
import { browserStorage, STORAGE_KEYS, type KeyValueStorage } from './storage-keys';

export interface SessionState {
  /** The stored user (localStorage `user`); null when signed out or unreadable. */
  user: StoredUser | null;
  /** Why the last session ended (shown on the sign-in page), e.g. 'Failed to refresh token'. */
  notice: string | null;
}

export function initialSession(storage: KeyValueStorage): SessionState {
  const stored = readStoredUser(storage);
  return { user: stored.status === 'ok' ? stored.user : null, notice: null };
}

export const sessionSlice = createSlice({
  name: 'session',
  initialState: (): SessionState => initialSession(browserStorage()),
  reducers: {
    signedIn(state, action: PayloadAction<StoredUser>) {
      state.user = action.payload;
      state.notice = null;
    },
    userUpdated(state, action: PayloadAction<StoredUser>) {
      state.user = action.payload;
    },
    signedOut(state, action: PayloadAction<string | null | undefined>) {
      state.user = null;
      state.notice = action.payload ?? null;
    },
    noticeCleared(state) {
      state.notice = null;
    },
  },
});

export const { signedIn, userUpdated, signedOut, noticeCleared } = sessionSlice.actions;

/** The keys a sign-out clears. Tokens live in httpOnly cookies; the two token keys
 * are cleared anyway in case an older version of the app left them behind. */
export const SIGN_OUT_KEYS = [
  STORAGE_KEYS.token,
  STORAGE_KEYS.refreshToken,
  STORAGE_KEYS.user,
  STORAGE_KEYS.returnUrl,
] as const;

export function clearSessionStorage(storage: KeyValueStorage): void {
  for (const key of SIGN_OUT_KEYS) storage.removeItem(key);
}
