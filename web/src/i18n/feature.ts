// Strings of a lazily loaded page ship inside that page's chunk, not in the eager English
// catalogue: the signed-in shell has a size budget (scripts/bench-bundle.mjs) and administration
// pages are seen by few. A feature keeps `features/<feature>/i18n.ts`:
//
//   export const catalogue = defineFeatureCatalogue('companies', { companies: { title: 'Companies' } }, {
//     fr: { companies: { title: 'Entreprises' } }, et: {…}, lv: {…},
//   });
//   const { t } = useFeatureTranslation(catalogue); t('companies.title');
//
// Each feature is its own i18next namespace, looked up before the shared catalogue, so
// `t('dataTable.columns')` still works inside a feature page. The other
// languages must have every English key: the type below makes a missing one a compile error and
// i18n/catalogues.test.ts checks none is empty.
import type { i18n as I18n } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { FeatureCatalogue } from './catalogue';
import { LANGUAGES } from './languages';

export { defineFeatureCatalogue, type FeatureCatalogue, type Translation, type Tree } from './catalogue';

/** Adds a feature's catalogue to i18next once (every language: they are in the chunk already). */
export function registerFeatureCatalogue(
  catalogue: FeatureCatalogue,
  instance: Pick<I18n, 'hasResourceBundle' | 'addResourceBundle'>,
): void {
  for (const { code } of LANGUAGES) {
    if (!instance.hasResourceBundle(code, catalogue.namespace)) {
      instance.addResourceBundle(code, catalogue.namespace, catalogue.messages[code], true, false);
    }
  }
}

/** `useTranslation` for a feature's own namespaces (a page may use a neighbour's too), then the shared one. */
export function useFeatureTranslation(...catalogues: [FeatureCatalogue, ...FeatureCatalogue[]]) {
  const { i18n } = useTranslation();
  for (const catalogue of catalogues) registerFeatureCatalogue(catalogue, i18n);
  // nsMode 'fallback': without it react-i18next looks only in the first namespace, and shared
  // keys (pages.*, roles.*) would show as their keys.
  return useTranslation([...catalogues.map((catalogue) => catalogue.namespace), 'translation'], { nsMode: 'fallback' });
}
