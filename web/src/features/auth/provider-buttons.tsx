import { useEffect, useState, type ReactElement } from 'react';
import { useText } from '../../i18n/text';
import { subdomainOf } from '../../lib/subdomain';
import type { ProviderDto, ProvidersResponse } from '@earshot/contracts';
import { authRequests } from './auth-requests';

const PROVIDERS: Array<{ id: 'google' | 'x'; labelKey: string; name: string }> = [
  { id: 'google', labelKey: 'auth.continueWithGoogle', name: 'Google' },
  { id: 'x', labelKey: 'auth.continueWithX', name: 'X' },
];

/**
 * A provider's start URL when it is enabled, with the keep-me-logged-in choice and the company
 * subdomain for the gateway; null when it is not enabled or not an http(s) URL.
 */
export function providerStartUrl(
  provider: ProviderDto | undefined,
  origin: string,
  options: { remember: boolean; domain: string | null },
): string | null {
  if (!provider?.enabled || !provider.startUrl) return null;
  let url: URL;
  try {
    url = new URL(provider.startUrl, origin);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  url.searchParams.set('remember', String(options.remember));
  if (options.domain) url.searchParams.set('domain', options.domain);
  return url.toString();
}

/** Google and X sign-in: starts the provider's sign-in when configured, else says it is not enabled. */
export function ProviderButtons({ remember }: { remember: boolean }): ReactElement {
  const { t } = useText();
  const [data, setData] = useState<ProvidersResponse | undefined>();
  useEffect(() => {
    let current = true;
    authRequests.signInProviders().then(
      (answer) => current && setData(answer),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, []);
  const [notice, setNotice] = useState<string | null>(null);

  const start = (id: string, name: string) => {
    const url = providerStartUrl(
      data?.providers.find((p) => p.id === id),
      window.location.origin,
      {
        remember,
        domain: subdomainOf(window.location.hostname),
      },
    );
    if (url) {
      window.location.assign(url);
      return;
    }
    setNotice(t('auth.providerNotEnabled', { provider: name }));
  };

  return (
    <div>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        {PROVIDERS.map((provider) => (
          <button
            key={provider.id}
            type="button"
            onClick={() => start(provider.id, provider.name)}
            data-testid={`provider-${provider.id}`}
            className="inline-flex h-11 items-center justify-center gap-3 rounded-lg border border-gray-300 bg-white px-4 text-sm font-medium text-gray-700 hover:bg-gray-50 dark:border-gray-700 dark:bg-gray-900 dark:text-gray-200 dark:hover:bg-gray-800"
          >
            <span aria-hidden="true" className="font-bold">
              {provider.id === 'google' ? 'G' : '𝕏'}
            </span>
            {t(provider.labelKey)}
          </button>
        ))}
      </div>
      <div aria-live="polite" className="mt-3 text-sm text-gray-700 dark:text-gray-300" data-testid="provider-notice">
        {notice}
      </div>
    </div>
  );
}
