// The console is two apps in one page: the signed-out pages (signed-out-app.tsx: React
// and fetch only) and the signed-in app (start-app.tsx: store, router, i18next). main.tsx shows
// one; each hands the page to the other when a person signs in or their session ends.
import { createContext } from 'react';
import type { CompanyConfig } from '../features/branding/company-config';

/** The pages of the signed-out app; every other path belongs to the signed-in one. */
export const SIGNED_OUT_PAGES = ['/signin', '/signup', '/two-step-verification', '/reset-password'] as const;

export function isSignedOutPage(pathname: string): boolean {
  return (SIGNED_OUT_PAGES as readonly string[]).includes(pathname);
}

/** What one app tells the other: why the session ended, and the company branding it has loaded. */
export interface HandOver {
  notice?: string | null;
  companyConfig?: CompanyConfig;
}

/** In the signed-in app: shows the signed-out app at the current URL. */
export const HandOverContext = createContext<(handOver: HandOver) => void>(() => undefined);
