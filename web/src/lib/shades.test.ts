import { describe, expect, it } from '@jest/globals';
import { brandShades, DEFAULT_BRAND_COLOR, DEFAULT_THEME_COLOR, parseHex, SHADES } from './shades';

const brightness = (hex: string) => (parseHex(hex) ?? [0, 0, 0]).reduce((sum, c) => sum + c, 0);

describe('brand shades', () => {
  it('has the twelve shades 25…950 with the primary colour itself as 500', () => {
    const scale = brandShades('#3b82f6');
    expect(Object.keys(scale).map(Number)).toEqual([25, 50, 100, 200, 300, 400, 500, 600, 700, 800, 900, 950]);
    expect(SHADES).toHaveLength(12);
    expect(scale[500]).toBe('#3b82f6');
  });

  it('lightens below 500 and darkens above it, in fixed steps', () => {
    const scale = brandShades('#3b82f6');
    const values = SHADES.map((shade) => brightness(scale[shade]));
    for (let i = 1; i < values.length; i += 1) expect(values[i]).toBeLessThan(values[i - 1] ?? Infinity);
    expect(scale[25]).toBe('#f5f9ff'); // 95 % towards white
    expect(scale[400]).toBe('#629bf8'); // 20 % towards white
    expect(scale[600]).toBe('#326fd1'); // 15 % towards black
    expect(scale[950]).toBe('#0f213e'); // 75 % towards black
  });

  it('accepts three-digit colours', () => {
    expect(brandShades('#0a0')[500]).toBe('#00aa00');
  });

  it('falls back to the default brand, a dark green, for anything that is not a colour', () => {
    expect(brandShades('not-a-colour')[500]).toBe(DEFAULT_BRAND_COLOR);
    expect(brandShades(undefined)[500]).toBe(DEFAULT_BRAND_COLOR);
    const [r, g, b] = parseHex(DEFAULT_BRAND_COLOR) ?? [0, 0, 0];
    expect(g).toBeGreaterThan(r);
    expect(g).toBeGreaterThan(b);
    expect(g).toBeLessThan(160); // dark
    expect(DEFAULT_THEME_COLOR).toBe('#3b82f6');
  });
});
