/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// The hash chain box with the app's store and RTK Query API; only the network is faked.
import { describe, expect, it, jest } from '@jest/globals';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { en } from '../../i18n/locales/en';
import { makeStore } from '../../lib/store';
import { ChainState } from './chain-state';
import type { ChainState as ChainStateDto } from './model';

const i18n = i18next.createInstance();
void i18n.init({ lng: 'en', resources: { en: { translation: en } }, interpolation: { escapeValue: false } });

const COMPANY = '00000000-0000-4000-8000-0000000000c1';
const HEAD = 'ab12cd34ef56'.padEnd(64, '0');

function fakeVerify(answer: ChainStateDto) {
  const asked: string[] = [];
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const url = new URL((input as Request).url);
    asked.push(`${url.pathname}${url.search}`);
    return new Response(JSON.stringify(answer), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
  return asked;
}

function renderBox(companyId: string | null) {
  render(
    <Provider store={makeStore()}>
      <I18nextProvider i18n={i18n}>
        <ChainState companyId={companyId} chainName={companyId ? 'Acme' : 'Platform'} />
      </I18nextProvider>
    </Provider>,
  );
}

describe('hash chain state', () => {
  it("verifies the filtered company's chain on demand and shows its length and head", async () => {
    const asked = fakeVerify({ ok: true, companyId: COMPANY, entries: 1234, head: HEAD });
    renderBox(COMPANY);
    expect(screen.getByText(/Not verified yet/)).toBeTruthy();
    expect(asked).toEqual([]);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Verify chain' }));
    expect((await screen.findByTestId('chain-ok')).textContent).toBe('✓ Verified 1,234 entries, head ab12cd34ef56…');
    expect(asked).toEqual([`/api/audit/verify?companyId=${COMPANY}`]);
  });

  it('names the first broken entry', async () => {
    const asked = fakeVerify({
      ok: false,
      companyId: null,
      entries: 3,
      head: HEAD,
      brokenAt: {
        position: 4,
        seq: 99,
        id: 'e4',
        reason: 'content',
        message: 'entry 4 (seq 99, id e4) was changed after it was recorded',
      },
    });
    renderBox(null);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Verify chain' }));
    const broken = await screen.findByTestId('chain-broken');
    expect(broken.textContent).toContain('Broken at entry 4');
    expect(broken.textContent).toContain('was changed after it was recorded');
    expect(asked).toEqual(['/api/audit/verify']);
  });
});
