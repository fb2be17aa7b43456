import { useState, type ReactElement } from 'react';
import { ownImage } from '../lib/own-image';

const SIZES = { sm: 'size-9 text-sm', md: 'size-12 text-lg', lg: 'size-16 text-2xl' } as const;

/**
 * A picture for something named (a custom GPT): its image, or its initial on the brand colour when
 * it has none, the image is not Earshot's (see ownImage) or does not load. Decorative: the name is always written beside it.
 */
export function NameAvatar({
  name,
  src,
  size = 'md',
}: {
  name: string;
  src: string | null | undefined;
  size?: keyof typeof SIZES;
}): ReactElement {
  const [broken, setBroken] = useState<string | null>(null);
  src = ownImage(src);
  if (src && broken !== src) {
    return (
      <img
        src={src}
        alt=""
        className={`${SIZES[size]} shrink-0 rounded-full object-cover`}
        onError={() => setBroken(src)}
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      className={`${SIZES[size]} flex shrink-0 items-center justify-center rounded-full bg-brand-100 font-semibold text-brand-800 dark:bg-brand-900/60 dark:text-brand-100`}
    >
      {name.trim().charAt(0).toUpperCase() || '?'}
    </span>
  );
}
