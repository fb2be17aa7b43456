import type { Brand } from '../../lib/brand';
import { brandShades, luminance, SHADES } from '../../lib/shades';

/** The CSS variables a brand sets on the root element (Tailwind's brand-* utilities read them). */
export function brandVariables(brand: Brand): Record<string, string> {
  const shades = brandShades(brand.theme.primary);
  const vars: Record<string, string> = {};
  for (const shade of SHADES) vars[`--color-brand-${shade}`] = shades[shade];
  // Buttons use brand-600/700 backgrounds: white text unless the company colour is very light.
  vars['--color-on-brand'] = luminance(shades[600]) > 0.4 ? '#111827' : '#ffffff';
  vars['--color-primary'] = brand.theme.primary;
  vars['--color-primary-light'] = brand.theme.primaryLight ?? shades[300];
  vars['--color-primary-dark'] = brand.theme.primaryDark ?? shades[700];
  if (brand.theme.secondary) vars['--color-secondary'] = brand.theme.secondary;
  if (brand.theme.accent) vars['--color-accent'] = brand.theme.accent;
  return vars;
}

/** Applies colours, favicon and browser theme colour to the document. */
export function applyBrand(brand: Brand, doc: Document): void {
  const root = doc.documentElement;
  for (const [name, value] of Object.entries(brandVariables(brand))) root.style.setProperty(name, value);
  const favicon = doc.querySelector<HTMLLinkElement>('link#app-favicon');
  if (favicon) favicon.href = brand.favIcon ?? '/favicon.svg';
  doc.querySelector('meta[name="theme-color"]')?.setAttribute('content', brand.themeColor);
  if (brand.subdomain) {
    void import('./company-manifest').then(({ applyCompanyManifest }) => applyCompanyManifest(brand, doc));
  }
}
