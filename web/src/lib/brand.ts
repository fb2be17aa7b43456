// The company branding every screen reads (name, logos, colours). The branding feature loads it;
// the rest of the app only reads it through useBrand().
import { createContext, useContext } from 'react';
import { DEFAULT_BRAND_COLOR, DEFAULT_THEME_COLOR } from './shades';

export interface BrandTheme {
  primary: string;
  primaryLight: string | null;
  primaryDark: string | null;
  secondary: string | null;
  accent: string | null;
}

export interface Brand {
  /** Product or company name: the prefix of every page title. */
  name: string;
  favIcon: string | null;
  logo: string | null;
  mainPageLogo: string | null;
  /** The company subdomain the brand came from; null for the product's own branding. */
  subdomain: string | null;
  /** Colour for the browser UI (meta theme-color). */
  themeColor: string;
  theme: BrandTheme;
}

export const DEFAULT_PRODUCT_NAME = 'Earshot';

export const DEFAULT_BRAND: Brand = {
  name: DEFAULT_PRODUCT_NAME,
  favIcon: null,
  logo: null,
  mainPageLogo: null,
  subdomain: null,
  themeColor: DEFAULT_THEME_COLOR,
  theme: { primary: DEFAULT_BRAND_COLOR, primaryLight: null, primaryDark: null, secondary: null, accent: null },
};

export const BrandContext = createContext<Brand>(DEFAULT_BRAND);

export function useBrand(): Brand {
  return useContext(BrandContext);
}
