// The signed-in app: i18next (set up once per page), a fresh store for each person who signs in,
// and the router. main.tsx imports it only when a session exists or after signing in.
import i18next from 'i18next';
import type { ReactElement } from 'react';
import { brandingApi } from '../features/branding/branding-api';
import { pickLanguage } from '../i18n/languages';
import { setupI18n } from '../i18n/setup';
import { makeStore } from '../lib/store';
import { browserStorage, STORAGE_KEYS } from '../lib/storage-keys';
import { subdomainOf } from '../lib/subdomain';
import { App } from './app';
import type { HandOver } from './hand-over';

let i18nReady: Promise<void> | null = null;

/** The language chosen on the signed-out pages (or saved in the person's account) carries over. */
async function translations(): Promise<void> {
  const storage = browserStorage();
  const browserLanguages = navigator.languages ?? [navigator.language];
  if (!i18nReady) {
    i18nReady = setupI18n({
      storage,
      browserLanguages,
      onLanguage: (code) => document.documentElement.setAttribute('lang', code),
    });
    return i18nReady;
  }
  await i18nReady;
  const language = pickLanguage(storage.getItem(STORAGE_KEYS.preferredLanguage), browserLanguages);
  if (language !== i18next.resolvedLanguage) await i18next.changeLanguage(language);
}

export async function appScreen({
  companyConfig,
  toSignedOut,
}: HandOver & { toSignedOut: (handOver: HandOver) => void }): Promise<ReactElement> {
  await translations();
  // A new store reads the stored user, and keeps nothing of a person who signed out before.
  const store = makeStore();
  const subdomain = subdomainOf(window.location.hostname);
  if (subdomain && companyConfig)
    void store.dispatch(brandingApi.util.upsertQueryData('getCompanyConfig', subdomain, companyConfig));
  return <App store={store} onSignedOut={toSignedOut} />;
}
