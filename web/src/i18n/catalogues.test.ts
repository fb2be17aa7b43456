import { describe, expect, it, jest } from '@jest/globals';
import type { i18n as I18n } from 'i18next';
import { en } from './locales/en';
import { et } from './locales/et';
import { fr } from './locales/fr';
import { lv } from './locales/lv';
import { pickLanguage } from './languages';
import { lazyCatalogueBackend } from './resources';
import { setupI18n } from './setup';
import { memoryStorage } from '../lib/storage-keys';

type Tree = { [key: string]: string | Tree };

/** Every leaf key, dotted ('menu.companies'), with its text. */
function leaves(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of leaves(value, path)) out.set(k, v);
  }
  return out;
}

/** Keys present in the reference (English) but missing or empty in the other catalogue. */
function missingKeys(reference: Tree, other: Tree): string[] {
  const theirs = leaves(other);
  return [...leaves(reference).keys()].filter((key) => !theirs.get(key)?.trim());
}

const others = { fr, et, lv } as unknown as Record<string, Tree>;
const english = en as unknown as Tree;

describe('translation catalogues', () => {
  it('detects a key that English has and another language lacks', () => {
    const incomplete = JSON.parse(JSON.stringify(fr)) as Tree;
    delete (incomplete.menu as Tree).companies;
    (incomplete.auth as Tree).email = ' ';
    expect(missingKeys(english, incomplete)).toEqual(['menu.companies', 'auth.email']);
  });

  it.each(Object.keys(others))('%s has every English key', (code) => {
    expect(missingKeys(english, others[code] as Tree)).toEqual([]);
  });

  it.each(Object.keys(others))('%s has no key that English lacks', (code) => {
    expect(missingKeys(others[code] as Tree, english)).toEqual([]);
  });

  it.each(Object.keys(others))('%s is a real translation, not a copy of English', (code) => {
    const theirs = leaves(others[code] as Tree);
    const all = [...leaves(english)];
    const same = all.filter(([key, text]) => theirs.get(key) === text);
    // Product names, acronyms and a few international words (CRM, SaaS, Clients, Message...) may stay.
    expect(same.length / all.length).toBeLessThan(0.12);
  });

  it.each(Object.keys(others))('%s keeps the placeholders of each English text', (code) => {
    const theirs = leaves(others[code] as Tree);
    for (const [key, text] of leaves(english)) {
      const placeholders = (s: string) => (s.match(/{{\w+}}/g) ?? []).sort();
      expect([key, placeholders(theirs.get(key) ?? '')]).toEqual([key, placeholders(text)]);
    }
  });

  it('includes the menu entries and company fields the original lacked', () => {
    for (const catalogue of [fr, et, lv]) {
      expect(catalogue.menu.aiFeatures).toBeTruthy();
      expect(catalogue.menu.b2cUsers).toBeTruthy();
      expect(catalogue.company.fields.partnerCompany).toBeTruthy();
      expect(catalogue.company.fields.maxStorage).toBeTruthy();
    }
  });
});

describe('language choice', () => {
  it('uses the saved language, else the browser language we have, else English', () => {
    expect(pickLanguage('et', ['fr-FR'])).toBe('et');
    expect(pickLanguage(null, ['de-DE', 'lv-LV'])).toBe('lv');
    expect(pickLanguage('xx', ['de'])).toBe('en');
  });

  it('loads French, Estonian and Latvian on demand', async () => {
    const backend = lazyCatalogueBackend({ fr: () => Promise.resolve(fr) });
    const read = (code: string) =>
      new Promise<unknown>((resolve, reject) => backend.read(code, 'translation', (error, data) => (error ? reject(error) : resolve(data))));
    await expect(read('fr')).resolves.toBe(fr);
    await expect(read('de')).resolves.toEqual({});
  });
});

describe('i18n set-up', () => {
  it("logs a failure and raises 'i18n error'", async () => {
    const logged: unknown[] = [];
    const spy = jest.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void logged.push(args));
    const broken = {
      use() {
        return broken;
      },
      init: () => Promise.reject(new Error('resources unreadable')),
      on: () => undefined,
    } as unknown as Pick<I18n, 'use' | 'init' | 'on'>;
    try {
      await expect(setupI18n({ storage: memoryStorage(), browserLanguages: [], instance: broken })).rejects.toThrow('i18n error');
      expect(logged).toHaveLength(1);
    } finally {
      spy.mockRestore();
    }
  });

  it('saves the chosen language as preferredLanguage', async () => {
    const listeners: Record<string, (code: string) => void> = {};
    const fake = {
      use() {
        return fake;
      },
      init: () => Promise.resolve(),
      on: (event: string, listener: (code: string) => void) => void (listeners[event] = listener),
    } as unknown as Pick<I18n, 'use' | 'init' | 'on'>;
    const storage = memoryStorage();
    const seen: string[] = [];
    await setupI18n({ storage, browserLanguages: ['et-EE'], instance: fake, onLanguage: (code) => seen.push(code) });
    listeners.languageChanged?.('lv');
    expect(storage.getItem('preferredLanguage')).toBe('lv');
    expect(seen).toEqual(['et', 'lv']);
  });
});
