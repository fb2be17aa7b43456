// Brand colour shades 25…950 from one primary colour: shade 500 is the primary;
// lighter shades mix it with white and darker ones with black, in fixed steps.

export const SHADE_STEPS = {
  25: { mix: '#ffffff', amount: 0.95 },
  50: { mix: '#ffffff', amount: 0.9 },
  100: { mix: '#ffffff', amount: 0.8 },
  200: { mix: '#ffffff', amount: 0.6 },
  300: { mix: '#ffffff', amount: 0.4 },
  400: { mix: '#ffffff', amount: 0.2 },
  500: { mix: '#ffffff', amount: 0 },
  600: { mix: '#000000', amount: 0.15 },
  700: { mix: '#000000', amount: 0.3 },
  800: { mix: '#000000', amount: 0.45 },
  900: { mix: '#000000', amount: 0.6 },
  950: { mix: '#000000', amount: 0.75 },
} as const;

export type Shade = keyof typeof SHADE_STEPS;
export type ShadeScale = Record<Shade, string>;
export const SHADES = Object.keys(SHADE_STEPS).map(Number) as Shade[];

/** The product's default brand colour (shade 500): a dark green. */
export const DEFAULT_BRAND_COLOR = '#15803d';
/** The product's default theme colour (browser UI, manifest). */
export const DEFAULT_THEME_COLOR = '#3b82f6';

type Rgb = [number, number, number];

/** '#abc' or '#aabbcc' (any case) → RGB; null for anything else. */
export function parseHex(value: string): Rgb | null {
  const match = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value.trim());
  if (!match?.[1]) return null;
  const hex = match[1].length === 3 ? [...match[1]].map((c) => c + c).join('') : match[1];
  return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16)) as Rgb;
}

function toHex(rgb: Rgb): string {
  return `#${rgb
    .map((c) =>
      Math.round(Math.min(255, Math.max(0, c)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

export function mix(color: Rgb, other: Rgb, amount: number): Rgb {
  return color.map((c, i) => c + ((other[i] ?? 0) - c) * amount) as Rgb;
}

/** Shades 25…950 of `primary`; the default brand green's when `primary` is not a hex colour. */
export function brandShades(primary: string | null | undefined): ShadeScale {
  const base = (primary && parseHex(primary)) || (parseHex(DEFAULT_BRAND_COLOR) as Rgb);
  const scale = {} as ShadeScale;
  for (const shade of SHADES) {
    const step = SHADE_STEPS[shade];
    scale[shade] = toHex(mix(base, parseHex(step.mix) as Rgb, step.amount));
  }
  return scale;
}

/** Relative luminance (WCAG), to pick readable text on a brand colour. */
export function luminance(color: string): number {
  const rgb = parseHex(color) ?? [0, 0, 0];
  const [r, g, b] = rgb.map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
