// Browser storage keys are part of the product contract: do not rename them.
export const STORAGE_KEYS = {
  theme: 'theme',
  user: 'user',
  token: 'token',
  refreshToken: 'refreshToken',
  returnUrl: 'returnUrl',
  pwaPromptDismissed: 'pwa-prompt-dismissed',
  preferredLanguage: 'preferredLanguage',
} as const;

/** The viewer's playback speed, remembered per person: `playback-speed:<user id>`. */
export function playbackSpeedKey(userId: string): string {
  return `playback-speed:${userId}`;
}

/** The part of the Web Storage API the app uses; tests pass an in-memory one. */
export type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** localStorage, or an in-memory stand-in where it is unavailable (private modes, old WebViews). */
export function browserStorage(): KeyValueStorage {
  try {
    const probe = '__earshot_probe__';
    window.localStorage.setItem(probe, probe);
    window.localStorage.removeItem(probe);
    return window.localStorage;
  } catch {
    return memoryStorage();
  }
}

export function memoryStorage(initial: Record<string, string> = {}): KeyValueStorage {
  const values = new Map(Object.entries(initial));
  return {
    getItem: (key) => values.get(key) ?? null,
    setItem: (key, value) => void values.set(key, String(value)),
    removeItem: (key) => void values.delete(key),
  };
}
