// Two apps share the page (app/hand-over.ts): the signed-out pages, small, and the signed-in app
// with its store, router and i18next, downloaded only when a session exists or after signing in
// (the sign-in page's JavaScript ≤ 100 KB gzip). This entry holds React DOM, the theme
// and the install offer, and shows one of the two.
import { StrictMode, type ReactElement } from 'react';
import { createRoot } from 'react-dom/client';
import { isSignedOutPage, type HandOver } from './app/hand-over';
import { applyInitialTheme } from './components/use-theme';
import { captureInstallEvents } from './features/pwa/install-events';
import { registerServiceWorker } from './features/pwa/register-service-worker';
import './index.css';

applyInitialTheme();
// Before anything waits: the browser's install offer comes early and only once.
captureInstallEvents();

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');
const root = createRoot(container);

function failed(error: unknown): void {
  // Without translations there is no text to show: say so plainly, and let the error surface.
  root.unmount();
  container!.textContent = 'Earshot could not start. Please reload the page.';
  throw error;
}

// The screen asked for last: a second hand-over to the same app (React's development double
// effects) is ignored, and an app that finishes loading after another was asked for is not shown.
let shown: 'signed-out' | 'app' | null = null;

async function show(which: 'signed-out' | 'app', load: () => Promise<ReactElement>): Promise<void> {
  if (shown === which) return;
  shown = which;
  const element = await load();
  if (shown === which) root.render(<StrictMode>{element}</StrictMode>);
}

function showSignedOut(handOver: HandOver): Promise<void> {
  return show('signed-out', async () =>
    (await import('./app/signed-out-app')).signedOutScreen({
      ...handOver,
      openApp: (next) => void showApp(next).catch(failed),
    }),
  );
}

function showApp(handOver: HandOver): Promise<void> {
  return show('app', async () =>
    (await import('./app/start-app')).appScreen({
      ...handOver,
      toSignedOut: (next) => void showSignedOut(next).catch(failed),
    }),
  );
}

(isSignedOutPage(window.location.pathname) ? showSignedOut({}) : showApp({}))
  .then(() => {
    if (import.meta.env.PROD) registerServiceWorker();
  })
  .catch(failed);
