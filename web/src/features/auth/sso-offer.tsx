// "Continue with <company>": single sign-on through the company's own identity provider, offered
// once the typed e-mail's domain turns out to be a company's, or at once on the company's own
// address (https://<company domain>.<host>/).
import { useEffect, useState, type ReactElement } from 'react';
import type { SsoDiscoverResponse } from '@earshot/contracts';
import { primaryButtonClass } from '../../components/text-field';
import { useText } from '../../i18n/text';
import { subdomainOf } from '../../lib/subdomain';
import { authRequests } from './auth-requests';
import { catalogue } from './i18n';

/** Typing pauses this long before the domain is asked about. */
const DEBOUNCE_MS = 350;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

export type SsoOffer = Required<Pick<SsoDiscoverResponse, 'companyName' | 'required' | 'startUrl'>>;

function offerOf(answer: SsoDiscoverResponse): SsoOffer | null {
  if (!answer.sso || !answer.companyName || !answer.startUrl) return null;
  return { companyName: answer.companyName, required: answer.required ?? false, startUrl: answer.startUrl };
}

/** The start address with the keep-me-signed-in choice (same origin only). */
export function ssoStartUrl(offer: SsoOffer, remember: boolean, origin: string): string | null {
  const url = new URL(offer.startUrl, origin);
  if (url.origin !== origin) return null;
  url.searchParams.set('remember', String(remember));
  return url.toString();
}

/**
 * The offer for the e-mail being typed (asked after a pause), else the company of this address;
 * null when neither signs in through a company's provider.
 */
export function useSsoOffer(email: string): SsoOffer | null {
  const [forAddress, setForAddress] = useState<SsoOffer | null>(null);
  const [forEmail, setForEmail] = useState<{ email: string; offer: SsoOffer | null } | null>(null);
  useEffect(() => {
    const company = subdomainOf(window.location.hostname);
    if (!company) return;
    let current = true;
    authRequests.ssoDiscover({ company }).then(
      (answer) => current && setForAddress(offerOf(answer)),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, []);
  const typed = email.trim().toLowerCase();
  useEffect(() => {
    if (!EMAIL.test(typed)) return;
    let current = true;
    const timer = setTimeout(() => {
      authRequests.ssoDiscover({ email: typed }).then(
        (answer) => current && setForEmail({ email: typed, offer: offerOf(answer) }),
        () => undefined,
      );
    }, DEBOUNCE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [typed]);
  return (forEmail?.email === typed ? forEmail.offer : null) ?? forAddress;
}

/** The button, and when the company requires it, the sentence saying passwords are not used there. */
export function SsoButton({ offer, remember }: { offer: SsoOffer; remember: boolean }): ReactElement {
  const { t } = useText(catalogue);
  const go = () => {
    const url = ssoStartUrl(offer, remember, window.location.origin);
    if (url) window.location.assign(url);
  };
  return (
    <div className="space-y-3" data-testid="sso-offer">
      <p className="text-sm text-gray-700 dark:text-gray-300">
        {t(offer.required ? 'sso.required' : 'sso.usesCompany', { company: offer.companyName })}
      </p>
      <button type="button" className={primaryButtonClass} onClick={go} data-testid="sso-continue">
        {t('sso.continueWith', { company: offer.companyName })}
      </button>
    </div>
  );
}
