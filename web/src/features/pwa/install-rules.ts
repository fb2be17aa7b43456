import { STORAGE_KEYS, type KeyValueStorage } from '../../lib/storage-keys';

/** A dismissed install prompt comes back after 24 hours. */
export const INSTALL_PROMPT_RESHOW_MS = 24 * 60 * 60 * 1000;

export interface InstallContext {
  isMobile: boolean;
  isStandalone: boolean;
  isInstalled: boolean;
  /** Milliseconds since the epoch of the last dismissal (`pwa-prompt-dismissed`), or null. */
  dismissedAt: number | null;
  now: number;
}

/** Mobile, not running standalone, not installed, and not dismissed in the last 24 hours. */
export function shouldShowInstallPrompt(context: InstallContext): boolean {
  if (!context.isMobile || context.isStandalone || context.isInstalled) return false;
  if (context.dismissedAt === null) return true;
  return context.now - context.dismissedAt >= INSTALL_PROMPT_RESHOW_MS;
}

export function readDismissedAt(storage: KeyValueStorage): number | null {
  const raw = storage.getItem(STORAGE_KEYS.pwaPromptDismissed);
  if (!raw) return null;
  const value = Number(raw);
  return Number.isFinite(value) ? value : null;
}

export function rememberDismissal(storage: KeyValueStorage, now: number): void {
  storage.setItem(STORAGE_KEYS.pwaPromptDismissed, String(now));
}

/** iPhone and iPad browsers have no install event: the prompt explains Add to Home Screen. */
export function isIos(userAgent: string, maxTouchPoints: number): boolean {
  return /iphone|ipad|ipod/i.test(userAgent) || (/macintosh/i.test(userAgent) && maxTouchPoints > 1);
}
