// Company branding from the public config call: what it answers, how it becomes the app's Brand,
// and how a failure is reported (spec parts 1 and 8).
import type { CompanyConfigDto } from '@earshot/contracts';
import { DEFAULT_BRAND, type Brand } from '../../lib/brand';
import type { Loose } from '../../lib/loose';
import { ownImage } from '../../lib/own-image';
import { parseHex } from '../../lib/shades';

/** The public company config, read defensively: any field may be missing or odd. */
export type CompanyConfig = Loose<CompanyConfigDto>;

export const CONFIG_LOAD_FAILED = 'Failed to load company configuration';

/** 'HTTP error! status: {code}' for an HTTP answer, else 'Failed to load company configuration'. */
export function configErrorText(error: unknown): string {
  if (error && typeof error === 'object' && 'status' in error) {
    const { status, originalStatus } = error as { status: unknown; originalStatus?: unknown };
    if (typeof status === 'number') return `HTTP error! status: ${status}`;
    if (typeof originalStatus === 'number' && (originalStatus < 200 || originalStatus >= 300)) {
      return `HTTP error! status: ${originalStatus}`;
    }
  }
  return CONFIG_LOAD_FAILED;
}

function colour(value: unknown): string | null {
  return typeof value === 'string' && parseHex(value) ? value.trim() : null;
}

/** Only Earshot's own images are used (never javascript:, data with scripts, or another host: see ownImage). */
function imageUrl(value: unknown): string | null {
  return typeof value === 'string' ? ownImage(value) : null;
}

export function brandFromConfig(config: CompanyConfig | undefined, subdomain: string | null): Brand {
  if (!config) return DEFAULT_BRAND;
  const theme = config.settings?.theme ?? {};
  const primary = colour(theme.primary);
  return {
    name: typeof config.name === 'string' && config.name.trim() ? config.name.trim() : DEFAULT_BRAND.name,
    favIcon: imageUrl(config.favIcon),
    logo: imageUrl(config.logo),
    mainPageLogo: imageUrl(config.mainPageLogo),
    subdomain,
    themeColor: primary ?? DEFAULT_BRAND.themeColor,
    theme: {
      primary: primary ?? DEFAULT_BRAND.theme.primary,
      primaryLight: colour(theme.primaryLight),
      primaryDark: colour(theme.primaryDark),
      secondary: colour(theme.secondary),
      accent: colour(theme.accent),
    },
  };
}
