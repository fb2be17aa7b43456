// The few strings the signed-out pages and the components they share with the signed-in app
// (theme toggle, language switcher, install prompt) read through this context, not through
// react-i18next: the sign-in page must not download i18next (scripts/bench-bundle.mjs).
// The signed-in app fills it from i18next (app/app.tsx); the signed-out one from the same
// catalogues, looked up by `translator` below (features/auth/signed-out-app.tsx).
import { createContext, useContext, useMemo } from 'react';
import type { FeatureCatalogue, Tree } from './catalogue';
import { DEFAULT_LANGUAGE, type LanguageCode } from './languages';

export type Translate = (key: string, values?: Record<string, string | number>) => string;

export interface Text {
  t: Translate;
  language: LanguageCode;
  changeLanguage: (code: LanguageCode) => void;
}

export const TextContext = createContext<Text>({
  t: (key) => key,
  language: DEFAULT_LANGUAGE,
  changeLanguage: () => undefined,
});

function lookup(tree: Tree | undefined, key: string): string | null {
  let node: string | Tree | undefined = tree;
  for (const part of key.split('.')) {
    if (!node || typeof node === 'string') return null;
    node = node[part];
  }
  return typeof node === 'string' ? node : null;
}

/**
 * i18next's lookup for these strings: the first catalogue that has the key (nested with dots),
 * `{{name}}` filled in, else the key itself.
 */
export function translator(catalogues: ReadonlyArray<Tree | undefined>): Translate {
  return (key, values) => {
    let text: string | null = null;
    for (const catalogue of catalogues) {
      text = lookup(catalogue, key);
      if (text !== null) break;
    }
    if (text === null) return key;
    return values
      ? text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole))
      : text;
  };
}

/** The shared strings, after a feature's own (`features/<feature>/i18n.ts`), in the language shown. */
export function useText(...catalogues: FeatureCatalogue[]): Text {
  const text = useContext(TextContext);
  const { t, language } = text;
  const own = catalogues.map((catalogue) => catalogue.messages[language] ?? catalogue.messages[DEFAULT_LANGUAGE]);
  const english = catalogues.map((catalogue) => catalogue.messages[DEFAULT_LANGUAGE]);
  const key = catalogues.map((catalogue) => catalogue.namespace).join(',');
  return useMemo(() => {
    if (own.length === 0) return text;
    const local = translator([...own, ...english] as Tree[]);
    const feature: Translate = (name, values) => {
      const found = local(name, values);
      return found === name ? t(name, values) : found;
    };
    return { ...text, t: feature };
    // The catalogues are module constants: their namespaces name them.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [text, key, language]);
}
