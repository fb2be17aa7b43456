import { createContext, useContext, useEffect, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useBrand } from '../lib/brand';
import { pageTitle } from './page-title';

export interface RouteHandle {
  /** i18n key of the page name in the title '<product name> | <page>'. */
  title?: string;
}

/** The i18n key of the page shown (from the matched routes' handles; see router.tsx). */
export const PageTitleKey = createContext<string | null>(null);

export { pageTitle } from './page-title';

/** Keeps document.title as '<product name> | <page>' for the deepest route that names a page. */
export function TitleUpdater(): ReactElement | null {
  const { t, i18n } = useTranslation();
  const brand = useBrand();
  const key = useContext(PageTitleKey);
  const title = pageTitle(brand.name, key ? t(key) : null);
  useEffect(() => {
    document.title = title;
  }, [title, i18n.resolvedLanguage]);
  return null;
}
