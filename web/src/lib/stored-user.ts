import type { Role, UserDto } from '@earshot/contracts';
import { isRole } from './roles';
import type { Loose } from './loose';
import { STORAGE_KEYS, type KeyValueStorage } from './storage-keys';

/**
 * The signed-in user (the contract's UserDto) as the app keeps it in localStorage `user`. Read back
 * from storage, any field may be missing or changed by an older version or by hand.
 */
export type StoredUser = Loose<UserDto>;

export type StoredUserRead = { status: 'none' } | { status: 'invalid' } | { status: 'ok'; user: StoredUser };

/** Reads `user`: absent, unreadable (not JSON or not an object), or a user object. */
export function readStoredUser(storage: KeyValueStorage): StoredUserRead {
  let raw: string | null;
  try {
    raw = storage.getItem(STORAGE_KEYS.user);
  } catch {
    return { status: 'invalid' };
  }
  if (raw === null) return { status: 'none' };
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return { status: 'invalid' };
    return { status: 'ok', user: parsed as StoredUser };
  } catch {
    return { status: 'invalid' };
  }
}

export function writeStoredUser(storage: KeyValueStorage, user: StoredUser): void {
  storage.setItem(STORAGE_KEYS.user, JSON.stringify(user));
}

/** The user's role code, or null when the user has none we know. */
export function roleOf(user: StoredUser | null | undefined): Role | null {
  const code = user?.roles?.role?.code;
  return isRole(code) ? code : null;
}

export function displayName(user: StoredUser | null | undefined): string {
  const name = [user?.firstName, user?.lastName].filter(Boolean).join(' ').trim();
  return name || user?.email || '';
}

export function initialsOf(user: StoredUser | null | undefined): string {
  const letters = [user?.firstName, user?.lastName].map((part) => part?.trim().charAt(0) ?? '').join('');
  return (letters || user?.email?.charAt(0) || '?').toUpperCase();
}
