import { useEffect, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useMatches } from 'react-router-dom';
import { useBrand } from '../lib/brand';

export interface RouteHandle {
  /** i18n key of the page name in the title '<product name> | <page>'. */
  title?: string;
}

export function pageTitle(productName: string, page: string | null): string {
  return page ? `${productName} | ${page}` : productName;
}

/** Keeps document.title as '<product name> | <page>' for the deepest route that names a page. */
export function TitleUpdater(): ReactElement | null {
  const { t, i18n } = useTranslation();
  const brand = useBrand();
  const matches = useMatches();
  const key = [...matches].reverse().map((match) => (match.handle as RouteHandle | undefined)?.title).find(Boolean);
  const title = pageTitle(brand.name, key ? t(key) : null);
  useEffect(() => {
    document.title = title;
  }, [title, i18n.resolvedLanguage]);
  return null;
}
