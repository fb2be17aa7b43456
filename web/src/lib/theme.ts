import { STORAGE_KEYS, type KeyValueStorage } from './storage-keys';

export type Theme = 'light' | 'dark';

/** The saved theme (`theme`), else the system preference. */
export function readTheme(storage: KeyValueStorage, prefersDark: boolean): Theme {
  const saved = storage.getItem(STORAGE_KEYS.theme);
  if (saved === 'dark' || saved === 'light') return saved;
  return prefersDark ? 'dark' : 'light';
}

/** Dark mode is the `dark` class on the page root. */
export function applyTheme(theme: Theme, root: HTMLElement): void {
  root.classList.toggle('dark', theme === 'dark');
}

export function saveTheme(storage: KeyValueStorage, theme: Theme): void {
  storage.setItem(STORAGE_KEYS.theme, theme);
}
