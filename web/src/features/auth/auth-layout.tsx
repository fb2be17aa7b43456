import type { ReactElement, ReactNode } from 'react';
import { useText } from '../../i18n/text';
import { useBrand } from '../../lib/brand';
import { ownImage } from '../../lib/own-image';
import { LanguageSwitcher } from '../../components/language-switcher';
import { Logo } from '../../components/logo';
import { ThemeToggle } from '../../components/theme-toggle';

/** The frame of the sign-in family of pages: the form on the left, the brand panel on the right. */
export function AuthLayout({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: string;
  children: ReactNode;
}): ReactElement {
  const { t } = useText();
  const brand = useBrand();
  return (
    <div className="flex min-h-screen bg-white dark:bg-gray-950">
      <main id="main" className="flex w-full flex-col px-6 py-6 lg:w-1/2 lg:px-12">
        <div className="flex items-center justify-between gap-3">
          <Logo />
          <div className="flex items-center gap-2">
            <LanguageSwitcher />
            <ThemeToggle />
          </div>
        </div>
        <div className="mx-auto flex w-full max-w-md flex-1 flex-col justify-center py-10">
          <h1 id="page-heading" className="mb-2 text-3xl font-semibold text-gray-900 dark:text-white">
            {title}
          </h1>
          {subtitle && <p className="mb-8 text-sm text-gray-600 dark:text-gray-400">{subtitle}</p>}
          {children}
        </div>
      </main>
      <aside aria-label={brand.name} className="hidden items-center justify-center bg-brand-950 p-12 lg:flex lg:w-1/2">
        <div className="max-w-sm text-center">
          {ownImage(brand.mainPageLogo ?? brand.logo) ? (
            <img
              src={ownImage(brand.mainPageLogo ?? brand.logo)!}
              alt=""
              className="mx-auto mb-6 max-h-24 object-contain"
            />
          ) : null}
          <p className="mb-3 text-3xl font-semibold text-white" data-testid="brand-panel-name">
            {brand.name}
          </p>
          <p className="text-brand-100">{t('auth.tagline')}</p>
        </div>
      </aside>
    </div>
  );
}
