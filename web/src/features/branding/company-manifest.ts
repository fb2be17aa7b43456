// The installable app follows the company's branding: on a company's subdomain the page swaps the
// static manifest for one with the company's name, theme colour and icons, as a blob URL built
// from the static manifest (so sizes, display and orientation stay in one place). The blob needs
// absolute URLs (relative ones would resolve against blob:) and the gateway's CSP allows
// `manifest-src blob:`. A per-host manifest route would need the gateway to read tenant config;
// this needs nothing on the server. Loaded only for a company brand, outside the initial bundle.
import type { Brand } from '../../lib/brand';

interface ManifestIcon {
  src: string;
  sizes?: string;
  type?: string;
  purpose?: string;
}

export interface WebManifest {
  name?: string;
  short_name?: string;
  theme_color?: string;
  start_url?: string;
  scope?: string;
  id?: string;
  icons?: ManifestIcon[];
  [key: string]: unknown;
}

const SHORT_NAME_MAX = 12;

export function companyManifest(base: WebManifest, brand: Brand, origin: string): WebManifest {
  const absolute = (url: string) => new URL(url, origin).href;
  const own = [brand.logo, brand.favIcon]
    .filter((url): url is string => Boolean(url) && !url!.startsWith('data:'))
    .map((src) => ({ src: absolute(src), sizes: 'any', purpose: 'any' }));
  return {
    ...base,
    id: absolute('/'),
    name: brand.name,
    short_name: brand.name.length > SHORT_NAME_MAX ? `${brand.name.slice(0, SHORT_NAME_MAX - 1)}…` : brand.name,
    theme_color: brand.themeColor,
    start_url: absolute(base.start_url ?? '/'),
    scope: absolute(base.scope ?? '/'),
    icons: [...own, ...(base.icons ?? []).map((icon) => ({ ...icon, src: absolute(icon.src) }))],
  };
}

/** Points `<link rel="manifest">` at the company's manifest; failures are only logged. */
export async function applyCompanyManifest(brand: Brand, doc: Document): Promise<void> {
  const link = doc.querySelector<HTMLLinkElement>('link[rel="manifest"]');
  if (!link || typeof URL.createObjectURL !== 'function') return;
  try {
    const answer = await fetch('/manifest.webmanifest');
    if (!answer.ok) throw new Error(`HTTP error! status: ${answer.status}`);
    const manifest = companyManifest((await answer.json()) as WebManifest, brand, doc.location.origin);
    const previous = link.href;
    link.href = URL.createObjectURL(new Blob([JSON.stringify(manifest)], { type: 'application/manifest+json' }));
    if (previous.startsWith('blob:')) URL.revokeObjectURL(previous);
  } catch (error) {
    console.error('Company manifest failed', error);
  }
}
