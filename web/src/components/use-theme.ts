import { useCallback, useState } from 'react';
import { applyTheme, readTheme, saveTheme, type Theme } from '../lib/theme';
import { browserStorage } from '../lib/storage-keys';

function prefersDark(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-color-scheme: dark)').matches;
}

/** The current theme and a toggle that applies and saves it. */
export function useTheme(): { theme: Theme; toggle: () => void } {
  const [theme, setTheme] = useState<Theme>(() =>
    document.documentElement.classList.contains('dark') ? 'dark' : 'light',
  );
  const toggle = useCallback(() => {
    setTheme((current) => {
      const next: Theme = current === 'dark' ? 'light' : 'dark';
      applyTheme(next, document.documentElement);
      saveTheme(browserStorage(), next);
      return next;
    });
  }, []);
  return { theme, toggle };
}

/** Applies the saved (or system) theme before the first paint. */
export function applyInitialTheme(): void {
  applyTheme(readTheme(browserStorage(), prefersDark()), document.documentElement);
}
