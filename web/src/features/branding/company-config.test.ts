import { describe, expect, it } from '@jest/globals';
import { DEFAULT_BRAND } from '../../lib/brand';
import { applyBrand, brandVariables } from './apply-brand';
import { brandFromConfig, configErrorText } from './company-config';

describe('company configuration', () => {
  it("reports an HTTP failure as 'HTTP error! status: {code}' and anything else as a load failure", () => {
    expect(configErrorText({ status: 404, data: { message: 'Not found' } })).toBe('HTTP error! status: 404');
    expect(configErrorText({ status: 'PARSING_ERROR', originalStatus: 502, data: '<html>', error: 'x' })).toBe(
      'HTTP error! status: 502',
    );
    expect(configErrorText({ status: 'FETCH_ERROR', error: 'TypeError: Failed to fetch' })).toBe(
      'Failed to load company configuration',
    );
    expect(configErrorText(new Error('boom'))).toBe('Failed to load company configuration');
  });

  it('uses the default product branding when there is no configuration', () => {
    expect(brandFromConfig(undefined, 'acme')).toEqual(DEFAULT_BRAND);
    expect(DEFAULT_BRAND.name).toBe('Earshot');
    expect(DEFAULT_BRAND.themeColor).toBe('#3b82f6');
  });

  it("takes the company's name, images and colours, ignoring unsafe or invalid values", () => {
    const brand = brandFromConfig(
      {
        name: ' Acme Corp ',
        favIcon: 'https://cdn.acme.test/favicon.ico',
        logo: 'javascript:alert(1)',
        mainPageLogo: '/uploads/acme/logo.png',
        settings: {
          theme: { primary: '#7c3aed', primaryLight: 'red; background: url(x)', secondary: '#111', accent: '#f59e0b' },
        },
      },
      'acme',
    );
    expect(brand).toMatchObject({
      name: 'Acme Corp',
      // Another host's image is not loaded (the CSP allows Earshot's own images only).
      favIcon: null,
      logo: null,
      mainPageLogo: '/uploads/acme/logo.png',
      subdomain: 'acme',
      themeColor: '#7c3aed',
      theme: { primary: '#7c3aed', primaryLight: null, secondary: '#111', accent: '#f59e0b' },
    });
  });

  it('applies the brand shades, colours, favicon and theme colour to the document', () => {
    document.head.innerHTML =
      '<link rel="icon" id="app-favicon" href="/favicon.svg"><meta name="theme-color" content="#3b82f6">';
    const brand = brandFromConfig(
      { name: 'Acme', favIcon: '/uploads/acme.ico', settings: { theme: { primary: '#7c3aed' } } },
      'acme',
    );
    applyBrand(brand, document);
    const style = document.documentElement.style;
    expect(style.getPropertyValue('--color-brand-500')).toBe('#7c3aed');
    expect(style.getPropertyValue('--color-brand-25')).not.toBe('');
    expect(style.getPropertyValue('--color-brand-950')).not.toBe('');
    expect(style.getPropertyValue('--color-primary')).toBe('#7c3aed');
    expect(document.querySelector<HTMLLinkElement>('#app-favicon')?.getAttribute('href')).toBe('/uploads/acme.ico');
    expect(document.querySelector('meta[name="theme-color"]')?.getAttribute('content')).toBe('#7c3aed');
  });

  it('keeps buttons readable on a very light company colour', () => {
    expect(
      brandVariables(brandFromConfig({ settings: { theme: { primary: '#fde047' } } }, 'x'))['--color-on-brand'],
    ).toBe('#111827');
    expect(brandVariables(DEFAULT_BRAND)['--color-on-brand']).toBe('#ffffff');
  });
});
