import type { ReactElement } from 'react';
import { useBrand } from '../lib/brand';
import { ownImage } from '../lib/own-image';

/** The company logo when branding has one, else the product word mark. */
export function Logo({
  compact = false,
  variant = 'logo',
}: {
  compact?: boolean;
  variant?: 'logo' | 'mainPageLogo';
}): ReactElement {
  const brand = useBrand();
  const src = ownImage(variant === 'mainPageLogo' ? (brand.mainPageLogo ?? brand.logo) : brand.logo);
  if (src) {
    return (
      <img src={src} alt={brand.name} className={compact ? 'h-8 w-8 object-contain' : 'h-8 max-w-44 object-contain'} />
    );
  }
  return (
    <span className="inline-flex items-center gap-2 font-semibold text-gray-900 dark:text-white">
      <span
        aria-hidden="true"
        className="inline-flex size-8 items-center justify-center rounded-lg bg-brand-600 text-sm text-on-brand"
      >
        {brand.name.charAt(0).toUpperCase()}
      </span>
      <span className={compact ? 'sr-only' : 'text-lg'} data-testid="brand-name">
        {brand.name}
      </span>
    </span>
  );
}
