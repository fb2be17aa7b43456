import { describe, expect, it } from '@jest/globals';
import { memoryStorage } from '../../lib/storage-keys';
import {
  INSTALL_PROMPT_RESHOW_MS,
  isIos,
  readDismissedAt,
  rememberDismissal,
  shouldShowInstallPrompt,
} from './install-rules';

const NOW = Date.UTC(2026, 0, 15, 12);
const base = { isMobile: true, isStandalone: false, isInstalled: false, dismissedAt: null, now: NOW };

describe('install prompt', () => {
  it('shows on mobile when not standalone, not installed and never dismissed', () => {
    expect(shouldShowInstallPrompt(base)).toBe(true);
  });

  it('does not show on desktop, in the installed app, or once installed', () => {
    expect(shouldShowInstallPrompt({ ...base, isMobile: false })).toBe(false);
    expect(shouldShowInstallPrompt({ ...base, isStandalone: true })).toBe(false);
    expect(shouldShowInstallPrompt({ ...base, isInstalled: true })).toBe(false);
  });

  it('stays away for 24 hours after a dismissal, then comes back', () => {
    expect(INSTALL_PROMPT_RESHOW_MS).toBe(86_400_000);
    expect(shouldShowInstallPrompt({ ...base, dismissedAt: NOW - INSTALL_PROMPT_RESHOW_MS + 1 })).toBe(false);
    expect(shouldShowInstallPrompt({ ...base, dismissedAt: NOW - INSTALL_PROMPT_RESHOW_MS })).toBe(true);
  });

  it('remembers the dismissal time as pwa-prompt-dismissed', () => {
    const storage = memoryStorage();
    expect(readDismissedAt(storage)).toBeNull();
    rememberDismissal(storage, NOW);
    expect(storage.getItem('pwa-prompt-dismissed')).toBe(String(NOW));
    expect(readDismissedAt(storage)).toBe(NOW);
    expect(readDismissedAt(memoryStorage({ 'pwa-prompt-dismissed': 'garbage' }))).toBeNull();
  });

  it('recognises iPhones and iPads (no install event there)', () => {
    expect(isIos('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)', 5)).toBe(true);
    expect(isIos('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)', 5)).toBe(true);
    expect(isIos('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)', 0)).toBe(false);
    expect(isIos('Mozilla/5.0 (Linux; Android 14)', 5)).toBe(false);
  });
});
