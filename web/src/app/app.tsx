import { useMemo, type ReactElement, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Provider } from 'react-redux';
import { BrowserRouter, Link } from 'react-router-dom';
import { MenuLinkContext } from '../components/dropdown-menu';
import { DEFAULT_LANGUAGE, isLanguageCode } from '../i18n/languages';
import { TextContext, type Text } from '../i18n/text';
import type { AppStore } from '../lib/store';
import { HandOverContext, type HandOver } from './hand-over';
import { AppRoutes } from './router';

/**
 * What the components shared with the signed-out pages take from the signed-in app: their strings
 * from i18next, and react-router's Link for menu links (inside a router and I18nextProvider).
 */
export function SharedComponentsContext({ children }: { children: ReactNode }): ReactElement {
  const { t, i18n } = useTranslation();
  const language = isLanguageCode(i18n.resolvedLanguage) ? i18n.resolvedLanguage : DEFAULT_LANGUAGE;
  const text = useMemo<Text>(
    () => ({ t: (key, values) => t(key, values), language, changeLanguage: (code) => void i18n.changeLanguage(code) }),
    [t, i18n, language],
  );
  return (
    <TextContext.Provider value={text}>
      <MenuLinkContext.Provider value={Link}>{children}</MenuLinkContext.Provider>
    </TextContext.Provider>
  );
}

export function App({
  store,
  onSignedOut,
}: {
  store: AppStore;
  onSignedOut: (handOver: HandOver) => void;
}): ReactElement {
  return (
    <Provider store={store}>
      <BrowserRouter>
        <SharedComponentsContext>
          <HandOverContext.Provider value={onSignedOut}>
            <AppRoutes />
          </HandOverContext.Provider>
        </SharedComponentsContext>
      </BrowserRouter>
    </Provider>
  );
}
