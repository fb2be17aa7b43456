// The signed-out pages as their own small app: React, fetch and the catalogue of the language
// shown, without the Redux store, react-router or i18next, which the signed-in app brings
// (the sign-in page's JavaScript ≤ 100 KB gzip; scripts/bench-bundle.mjs measures it).
// It does what the signed-in app did for these pages: the page title, the company branding, the
// install prompt, /signin and /signup sending a signed-in person on, and the return URL after
// signing in.
import { lazy, Suspense, useCallback, useEffect, useMemo, useState, type ReactElement } from 'react';
import { FullScreenSpinner } from '../components/spinner';
import SignInPage from '../features/auth/sign-in-page';
import SignUpPage from '../features/auth/sign-up-page';
import TwoStepPage from '../features/auth/two-step-page';
import ResetPasswordPage from '../features/auth/reset-password-page';
import { SignedOutContext, type SignedOut } from '../features/auth/signed-out';
import { applyBrand } from '../features/branding/apply-brand';
import { brandFromConfig, configErrorText, type CompanyConfig } from '../features/branding/company-config';
import type { Tree } from '../i18n/catalogue';
import { isLanguageCode, pickLanguage, type LanguageCode } from '../i18n/languages';
import { en } from '../i18n/locales/en';
import { loaders } from '../i18n/resources';
import { TextContext, translator, type Text } from '../i18n/text';
import { consumeReturnUrl, HOME_AFTER_SIGNIN, signedInLanding } from '../lib/access';
import { BrandContext } from '../lib/brand';
import { requestJson } from '../lib/fetch-json';
import { browserStorage, STORAGE_KEYS } from '../lib/storage-keys';
import { writeStoredUser, type StoredUser } from '../lib/stored-user';
import { subdomainOf } from '../lib/subdomain';
import { isSignedOutPage, type HandOver } from './hand-over';
import { pageTitle } from './page-title';

const InstallPrompt = lazy(() => import('../features/pwa/install-prompt'));

const PAGES: Record<string, { title: string; Page: () => ReactElement; publicOnly?: boolean }> = {
  '/signin': { title: 'pages.signIn', Page: SignInPage, publicOnly: true },
  '/signup': { title: 'pages.signUp', Page: SignUpPage, publicOnly: true },
  '/two-step-verification': { title: 'pages.twoStep', Page: TwoStepPage },
  '/reset-password': { title: 'pages.resetPassword', Page: ResetPasswordPage },
};

type Catalogues = Partial<Record<LanguageCode, Tree>>;

async function withCatalogue(catalogues: Catalogues, code: LanguageCode): Promise<Catalogues> {
  const load = loaders[code];
  if (catalogues[code] || !load) return catalogues;
  return { ...catalogues, [code]: (await load()) as unknown as Tree };
}

function here(): { pathname: string; search: string } {
  return { pathname: window.location.pathname, search: window.location.search };
}

interface SignedOutAppProps extends HandOver {
  language: LanguageCode;
  catalogues: Catalogues;
  /** Shows the signed-in app at the current URL. */
  openApp: (handOver: HandOver) => void;
}

function useCompanyConfig(initial: CompanyConfig | undefined): {
  config: CompanyConfig | undefined;
  loading: boolean;
  subdomain: string | null;
} {
  const subdomain = useMemo(() => subdomainOf(window.location.hostname), []);
  const [config, setConfig] = useState(initial);
  const [loading, setLoading] = useState(Boolean(subdomain && !initial));
  useEffect(() => {
    if (!subdomain || initial) return;
    requestJson<CompanyConfig>(`/config/company/${encodeURIComponent(subdomain)}`)
      .then(setConfig, (error: unknown) => console.error(configErrorText(error)))
      .finally(() => setLoading(false));
  }, [subdomain, initial]);
  return { config, loading, subdomain };
}

export function SignedOutApp({
  language: initialLanguage,
  catalogues: initialCatalogues,
  notice: initialNotice = null,
  companyConfig,
  openApp,
}: SignedOutAppProps): ReactElement | null {
  const storage = useMemo(() => browserStorage(), []);
  const [location, setLocation] = useState(here);
  const [notice, setNotice] = useState(initialNotice);
  const [{ language, catalogues }, setLanguage] = useState({
    language: initialLanguage,
    catalogues: initialCatalogues,
  });
  const { config, loading, subdomain } = useCompanyConfig(companyConfig);
  const brand = useMemo(() => brandFromConfig(config, subdomain), [config, subdomain]);
  useEffect(() => applyBrand(brand, document), [brand]);

  const leave = useCallback(() => openApp({ companyConfig: config }), [openApp, config]);

  const navigate = useCallback(
    (to: string, options?: { replace?: boolean }) => {
      const url = new URL(to, window.location.origin);
      const path = `${url.pathname}${url.search}${url.hash}`;
      if (options?.replace) window.history.replaceState(null, '', path);
      else window.history.pushState(null, '', path);
      if (isSignedOutPage(url.pathname)) setLocation(here());
      else leave();
    },
    [leave],
  );

  useEffect(() => {
    const back = () => (isSignedOutPage(window.location.pathname) ? setLocation(here()) : leave());
    window.addEventListener('popstate', back);
    return () => window.removeEventListener('popstate', back);
  }, [leave]);

  const changeLanguage = useCallback(
    (code: LanguageCode) => {
      void withCatalogue(catalogues, code).then(
        (loaded) => {
          setLanguage({ language: code, catalogues: loaded });
          storage.setItem(STORAGE_KEYS.preferredLanguage, code);
          document.documentElement.setAttribute('lang', code);
        },
        (cause: unknown) => console.error('Failed to load translations', cause),
      );
    },
    [catalogues, storage],
  );

  const text = useMemo<Text>(
    () => ({ t: translator([catalogues[language], en]), language, changeLanguage }),
    [catalogues, language, changeLanguage],
  );

  const signedIn = useCallback(
    (user: StoredUser) => {
      writeStoredUser(storage, user);
      // The language saved in the person's account follows them to every browser they sign in on.
      if (isLanguageCode(user.language) && user.language !== language)
        storage.setItem(STORAGE_KEYS.preferredLanguage, user.language);
      navigate(consumeReturnUrl(storage, window.location.origin, HOME_AFTER_SIGNIN), { replace: true });
    },
    [storage, language, navigate],
  );

  const signedOut = useMemo<SignedOut>(
    () => ({
      ...location,
      navigate,
      notice,
      clearNotice: () => setNotice(null),
      signedIn,
    }),
    [location, navigate, notice, signedIn],
  );

  const page = PAGES[location.pathname];
  // /signin and /signup: a signed-in person goes to the valid return URL (then cleared), else /chat.
  const landing = page?.publicOnly ? signedInLanding(storage, window.location.origin) : null;
  useEffect(() => {
    if (!landing) return;
    storage.removeItem(STORAGE_KEYS.returnUrl);
    navigate(landing, { replace: true });
  }, [landing, navigate, storage]);

  const title = pageTitle(brand.name, page ? text.t(page.title) : null);
  useEffect(() => {
    document.title = title;
  }, [title]);

  if (subdomain && loading) return <FullScreenSpinner label={text.t('common.loadingCompany')} />;
  if (!page || landing) return null;
  return (
    <TextContext.Provider value={text}>
      <BrandContext.Provider value={brand}>
        <SignedOutContext.Provider value={signedOut}>
          <page.Page />
          <Suspense fallback={null}>
            <InstallPrompt />
          </Suspense>
        </SignedOutContext.Provider>
      </BrandContext.Provider>
    </TextContext.Provider>
  );
}

/** The signed-out app in the language chosen (its catalogue loaded first, as i18next did). */
export async function signedOutScreen(props: HandOver & Pick<SignedOutAppProps, 'openApp'>): Promise<ReactElement> {
  const language = pickLanguage(
    browserStorage().getItem(STORAGE_KEYS.preferredLanguage),
    navigator.languages ?? [navigator.language],
  );
  const catalogues = await withCatalogue({ en: en as unknown as Tree }, language);
  document.documentElement.setAttribute('lang', language);
  return <SignedOutApp {...props} language={language} catalogues={catalogues} />;
}
