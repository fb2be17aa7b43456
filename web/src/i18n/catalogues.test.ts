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
import { defineFeatureCatalogue, registerFeatureCatalogue, type FeatureCatalogue } from './feature';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

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

// Every feature's own catalogue (i18n/feature.ts), found on disk so a new one cannot be missed.
const featuresDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'features');
// A feature may keep more than one (`i18n.ts`, `analysis-i18n.ts`): every `*i18n.ts` counts.
const featureCatalogues = readdirSync(featuresDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .flatMap((feature) =>
    readdirSync(join(featuresDir, feature))
      .filter((file) => file === 'i18n.ts' || file.endsWith('-i18n.ts'))
      .map((file) => [file === 'i18n.ts' ? feature : `${feature}/${file}`, join(featuresDir, feature, file)] as const),
  );
// Shared components keep theirs beside them, and so do the entities (`entities/tasks/task-dialog-i18n.ts`).
const componentsDir = join(featuresDir, '..', 'components');
featureCatalogues.push(
  ...readdirSync(componentsDir)
    .filter((file) => file.endsWith('-i18n.ts'))
    .map((file) => [`components/${file}`, join(componentsDir, file)] as const),
);
const entitiesDir = join(featuresDir, '..', 'entities');
featureCatalogues.push(
  ...readdirSync(entitiesDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) =>
      readdirSync(join(entitiesDir, entry.name))
        .filter((file) => file.endsWith('-i18n.ts'))
        .map((file) => [`entities/${entry.name}/${file}`, join(entitiesDir, entry.name, file)] as const),
    ),
);

describe('feature catalogues', () => {
  it('finds the feature catalogues on disk', () => {
    expect(featureCatalogues.map(([feature]) => feature)).toContain('audit-logs');
  });

  it.each(featureCatalogues)(
    '%s has every English key, non-empty, with the same placeholders, in every language',
    async (_feature, file) => {
      const { catalogue } = (await import(file)) as { catalogue: FeatureCatalogue };
      const reference = catalogue.messages.en as unknown as Tree;
      for (const [code, messages] of Object.entries(catalogue.messages)) {
        const theirs = messages as unknown as Tree;
        expect([code, missingKeys(reference, theirs)]).toEqual([code, []]);
        expect([code, missingKeys(theirs, reference)]).toEqual([code, []]);
        const placeholders = (s: string) => (s.match(/{{\w+}}/g) ?? []).sort();
        const texts = leaves(theirs);
        for (const [key, text] of leaves(reference))
          expect([code, key, placeholders(texts.get(key) ?? '')]).toEqual([code, key, placeholders(text)]);
      }
    },
  );

  it('registers a catalogue once per language, in its own namespace', () => {
    const added: string[] = [];
    const bundles = new Set<string>();
    const fake = {
      hasResourceBundle: (code: string, ns: string) => bundles.has(`${code}:${ns}`),
      addResourceBundle: (code: string, ns: string) => {
        bundles.add(`${code}:${ns}`);
        added.push(`${code}:${ns}`);
        return fake;
      },
    } as unknown as Pick<I18n, 'hasResourceBundle' | 'addResourceBundle'>;
    const catalogue = defineFeatureCatalogue(
      'demo',
      { demo: { title: 'Title' } },
      { fr: { demo: { title: 'Titre' } }, et: { demo: { title: 'Pealkiri' } }, lv: { demo: { title: 'Virsraksts' } } },
    );
    registerFeatureCatalogue(catalogue, fake);
    registerFeatureCatalogue(catalogue, fake);
    expect(added).toEqual(['en:demo', 'fr:demo', 'et:demo', 'lv:demo']);
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
      new Promise<unknown>((resolve, reject) =>
        backend.read(code, 'translation', (error, data) => (error ? reject(error) : resolve(data))),
      );
    await expect(read('fr')).resolves.toBe(fr);
    await expect(read('de')).resolves.toEqual({});
    // A feature namespace never gets the whole shared catalogue.
    await expect(
      new Promise((resolve) => backend.read('fr', 'audit-logs', (_error, data) => resolve(data))),
    ).resolves.toEqual({});
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
      await expect(setupI18n({ storage: memoryStorage(), browserLanguages: [], instance: broken })).rejects.toThrow(
        'i18n error',
      );
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
