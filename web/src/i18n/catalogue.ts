// A feature's catalogue (how to write one: feature.ts). Apart from feature.ts, which registers it
// with i18next, so that the signed-out pages read theirs without downloading i18next (i18n/text.ts).
import type { LanguageCode } from './languages';

export type Tree = { readonly [key: string]: string | Tree };

/** The same keys as `T`, any text. */
export type Translation<T> = { readonly [K in keyof T]: T[K] extends string ? string : Translation<T[K]> };

export interface FeatureCatalogue<T extends Tree = Tree> {
  namespace: string;
  messages: Record<LanguageCode, Translation<T>>;
}

export function defineFeatureCatalogue<T extends Tree>(
  namespace: string,
  en: T,
  others: Record<Exclude<LanguageCode, 'en'>, Translation<T>>,
): FeatureCatalogue<T> {
  return { namespace, messages: { en: en as Translation<T>, ...others } };
}
