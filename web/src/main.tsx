import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { makeStore } from './lib/store';
import { applyInitialTheme } from './components/use-theme';
import { captureInstallEvents } from './features/pwa/install-events';
import { registerServiceWorker } from './features/pwa/register-service-worker';
import { setupI18n } from './i18n/setup';
import { browserStorage } from './lib/storage-keys';
import './index.css';

applyInitialTheme();
// Before anything waits: the browser's install offer comes early and only once.
captureInstallEvents();

async function start(): Promise<void> {
  await setupI18n({
    storage: browserStorage(),
    browserLanguages: navigator.languages ?? [navigator.language],
    onLanguage: (code) => document.documentElement.setAttribute('lang', code),
  });
  const store = makeStore();
  const container = document.getElementById('root');
  if (!container) throw new Error('The page has no #root element');
  createRoot(container).render(
    <StrictMode>
      <App store={store} />
    </StrictMode>,
  );
  if (import.meta.env.PROD) registerServiceWorker();
}

start().catch((error: unknown) => {
  // Without translations there is no text to show: say so plainly, and let the error surface.
  const container = document.getElementById('root');
  if (container) container.textContent = 'Earshot could not start. Please reload the page.';
  throw error;
});
