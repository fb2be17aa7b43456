/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// The model form offers the models the provider lists; typing stays possible, and a provider that
// cannot list them is said so. Only the network is faked.
import { describe, expect, it, jest } from '@jest/globals';
import { render, screen, within } from '@testing-library/react';
import i18next from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { en } from '../../i18n/locales/en';
import { makeStore } from '../../lib/store';
import type { AiProvider } from './model';
import { ModelForm } from './model-form';

const i18n = i18next.createInstance();
void i18n.init({ lng: 'en', resources: { en: { translation: en } }, interpolation: { escapeValue: false } });

const provider = {
  _id: 'p1',
  name: 'Local',
  kind: 'openai-compatible',
  baseUrl: 'http://127.0.0.1:1/v1',
  enabled: true,
  hasApiKey: false,
  apiKeyLast4: null,
} as unknown as AiProvider;

function answer(status: number, body: unknown) {
  const calls: string[] = [];
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    calls.push(new URL((input as Request).url).pathname);
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
  return calls;
}

function renderForm() {
  render(
    <Provider store={makeStore()}>
      <I18nextProvider i18n={i18n}>
        <ModelForm model={null} providers={[provider]} onClose={() => undefined} />
      </I18nextProvider>
    </Provider>,
  );
}

describe('model form', () => {
  it("lists the provider's models to pick from", async () => {
    const calls = answer(200, [{ id: 'gpt-4o' }, { id: 'llama3.1' }]);
    renderForm();
    await screen.findByText(/Pick one of the 2 models the provider lists, or type a name\./);
    const options = within(screen.getByTestId('provider-models')).getAllByRole('option', { hidden: true });
    expect(options.map((option) => option.getAttribute('value'))).toEqual(['gpt-4o', 'llama3.1']);
    expect(screen.getByTestId('model-name').getAttribute('list')).toBe(screen.getByTestId('provider-models').id);
    expect(calls).toEqual(['/api/ai/config/providers/p1/models']);
  });

  it('says when the provider could not list them, and the name can still be typed', async () => {
    answer(424, { message: 'The provider could not be reached', code: 'PROVIDER_ERROR' });
    renderForm();
    await screen.findByText(
      'The provider’s models could not be listed (The provider could not be reached): type the name.',
      { exact: false },
    );
    expect(screen.getByTestId('model-name')).toBeEnabled();
  });
});
