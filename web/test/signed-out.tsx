// For tests of the signed-out pages: the real signed-out app (app/signed-out-app.tsx) at `url`,
// in English; `openApp` records each hand-over to the signed-in app (the URL is then where it went).
import { jest } from '@jest/globals';
import { render } from '@testing-library/react';
import { SignedOutApp } from '../src/app/signed-out-app';
import type { HandOver } from '../src/app/hand-over';
import type { Tree } from '../src/i18n/catalogue';
import { en } from '../src/i18n/locales/en';

export function renderSignedOut(url: string, handOver: HandOver = {}) {
  window.history.replaceState(null, '', url);
  const openApp = jest.fn<(next: HandOver) => void>();
  const view = render(
    <SignedOutApp {...handOver} language="en" catalogues={{ en: en as unknown as Tree }} openApp={openApp} />,
  );
  return { ...view, openApp };
}
