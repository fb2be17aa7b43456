import { describe, expect, it } from '@jest/globals';
import { brandFromConfig } from './company-config';
import { companyManifest } from './company-manifest';

describe('company web app manifest', () => {
  const base = {
    name: 'Earshot',
    short_name: 'Earshot',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    orientation: 'portrait',
    theme_color: '#3b82f6',
    icons: [{ src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' }],
  };

  it("takes the company's name, theme colour and images, with absolute URLs (a blob manifest resolves nothing)", () => {
    const brand = brandFromConfig(
      {
        name: 'Acme Corporation Europe',
        logo: '/api/uploads/acme/logo.png',
        favIcon: 'data:image/png;base64,AAAA',
        settings: { theme: { primary: '#7c3aed' } },
      },
      'acme',
    );
    const manifest = companyManifest(base, brand, 'http://acme.localhost:4104');
    expect(manifest).toMatchObject({
      id: 'http://acme.localhost:4104/',
      name: 'Acme Corporation Europe',
      short_name: 'Acme Corpor…',
      theme_color: '#7c3aed',
      start_url: 'http://acme.localhost:4104/',
      scope: 'http://acme.localhost:4104/',
      display: 'standalone',
      orientation: 'portrait',
    });
    expect(manifest.icons).toEqual([
      { src: 'http://acme.localhost:4104/api/uploads/acme/logo.png', sizes: 'any', purpose: 'any' },
      { src: 'http://acme.localhost:4104/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
    ]);
  });

  it("keeps the product's icons for a company without images", () => {
    const manifest = companyManifest(base, brandFromConfig({ name: 'Acme' }, 'acme'), 'https://acme.example.com');
    expect(manifest.icons).toEqual([
      { src: 'https://acme.example.com/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
    ]);
    expect(manifest.short_name).toBe('Acme');
  });
});
