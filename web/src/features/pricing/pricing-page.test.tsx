/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// The pricing page with the app's store and RTK Query API; only `fetch` is faked.
import { describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeGateway, json, renderPage, type Call } from '../../../test/fake-gateway';
import type { PriceDto } from './model';
import PricingPage from './pricing-page';

const CHAT = '00000000-0000-4000-8000-0000000000a1';
const price = (extra: Partial<PriceDto>): PriceDto => ({
  _id: 'p1',
  modelId: CHAT,
  engine: null,
  modelName: 'gpt-test',
  unit: 'input_1k',
  credits: 1.5,
  effectiveFrom: '2026-01-01T00:00:00.000Z',
  createdAt: '2026-01-01T00:00:00.000Z',
  ...extra,
});

function gateway(more: (call: Call) => ReturnType<typeof json> = () => undefined) {
  return fakeGateway((call) => {
    if (call.path === '/api/pricing' && call.method === 'GET')
      return json({ currency: 'EUR', creditRate: 0.01, prices: [price({})] });
    if (call.path === '/api/ai/config/model/dropdown')
      return json([{ _id: CHAT, name: 'gpt-test', purpose: 'chat', isDefault: true }]);
    return more(call);
  });
}

describe('pricing page', () => {
  it('lists the prices in force per model and engine, marking what has no price', async () => {
    gateway();
    renderPage(<PricingPage />, { path: '/pricing', url: '/pricing', role: 'HOST_ADMIN', companyId: null });
    const rows = await screen.findAllByTestId('data-table-row');
    // The chat model, then the engines: PocketSphinx, Whisper (both offline) and OpenAI-compatible.
    expect(rows).toHaveLength(4);
    const chat = rows.find((row) => row.textContent?.includes('gpt-test'))!;
    expect(chat).toHaveTextContent('Input: 1.5 per 1,000 input tokens');
    expect(within(chat).getByText('No price')).toBeInTheDocument();
    const offline = rows.find((row) => row.textContent?.includes('PocketSphinx'))!;
    expect(offline).toHaveTextContent('Audio: No price');
    expect(rows.find((row) => row.textContent?.includes('Whisper (offline)'))).toHaveTextContent('Audio: No price');
    expect(screen.getByTestId('credit-value')).toHaveTextContent('1 credit = €0.01');
  });

  it('sets a price from a later date and checks the amount first', async () => {
    const sent = gateway((call) =>
      call.path === '/api/pricing' && call.method === 'POST'
        ? json(price({ _id: 'p2', unit: 'output_1k', credits: 4 }), 201)
        : undefined,
    );
    const user = userEvent.setup();
    renderPage(<PricingPage />, { path: '/pricing', url: '/pricing', role: 'HOST_ADMIN', companyId: null });
    await user.click(await screen.findByRole('button', { name: 'Set price for gpt-test' }));
    const form = screen.getByTestId('price-form');
    await user.selectOptions(within(form).getByLabelText('Unit'), 'output_1k');
    await user.type(within(form).getByLabelText('Credits'), '1.23456');
    await user.click(within(form).getByRole('button', { name: 'Save price' }));
    expect(await within(form).findByText('Enter zero or more credits, with at most four decimals')).toBeInTheDocument();
    await user.clear(within(form).getByLabelText('Credits'));
    await user.type(within(form).getByLabelText('Credits'), '4');
    await user.type(within(form).getByLabelText('Effective from'), '2099-03-01T00:00');
    await user.click(within(form).getByRole('button', { name: 'Save price' }));
    await waitFor(() =>
      expect(sent.find((call) => call.method === 'POST')?.body).toEqual({
        modelId: CHAT,
        unit: 'output_1k',
        credits: 4,
        effectiveFrom: new Date('2099-03-01T00:00').toISOString(),
      }),
    );
    expect(await screen.findByText('Price saved')).toBeInTheDocument();
  });

  it('shows a model’s history with the scheduled, current and replaced prices', async () => {
    const sent = gateway((call) =>
      call.path === '/api/pricing/history'
        ? json([
            price({ _id: 'h3', credits: 3, effectiveFrom: '2099-01-01T00:00:00.000Z' }),
            price({ _id: 'h2', credits: 2, effectiveFrom: '2026-02-01T00:00:00.000Z' }),
            price({ _id: 'h1', credits: 1, effectiveFrom: '2026-01-01T00:00:00.000Z' }),
          ])
        : undefined,
    );
    const user = userEvent.setup();
    renderPage(<PricingPage />, { path: '/pricing', url: '/pricing', role: 'HOST_ADMIN', companyId: null });
    await user.click(await screen.findByRole('button', { name: 'Price history: gpt-test' }));
    const rows = await screen.findAllByTestId('history-row');
    expect(rows.map((row) => row.lastChild?.textContent)).toEqual(['Scheduled', 'In force', 'Replaced']);
    expect(Object.fromEntries(sent.find((call) => call.path === '/api/pricing/history')!.query)).toEqual({
      modelId: CHAT,
    });
  });

  it('names an engine by its translated name everywhere, the history dialog included', async () => {
    const sent = gateway((call) =>
      call.path === '/api/pricing/history'
        ? json([
            price({
              _id: 'e1',
              modelId: null,
              engine: 'pocketsphinx',
              modelName: null,
              unit: 'audio_minute',
              credits: 0.5,
            }),
          ])
        : undefined,
    );
    const user = userEvent.setup();
    renderPage(<PricingPage />, { path: '/pricing', url: '/pricing', role: 'HOST_ADMIN', companyId: null });
    expect(await screen.findByRole('button', { name: 'Set price for PocketSphinx (offline)' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Price history: PocketSphinx (offline)' }));
    const dialog = screen.getByTestId('history-dialog');
    expect(within(dialog).getByRole('heading', { name: 'Price history: PocketSphinx (offline)' })).toBeInTheDocument();
    expect(
      await within(dialog).findByRole('region', { name: 'Price history: PocketSphinx (offline)' }),
    ).toBeInTheDocument();
    expect(within(dialog).queryByText(/pocketsphinx/)).toBeNull();
    expect(within(dialog).getAllByTestId('history-row')).toHaveLength(1);
    expect(Object.fromEntries(sent.find((call) => call.path === '/api/pricing/history')!.query)).toEqual({
      engine: 'pocketsphinx',
    });
  });

  it('says when a history cannot be loaded', async () => {
    gateway((call) =>
      call.path === '/api/pricing/history' ? json({ message: 'History is resting' }, 503) : undefined,
    );
    const user = userEvent.setup();
    renderPage(<PricingPage />, { path: '/pricing', url: '/pricing', role: 'HOST_ADMIN', companyId: null });
    await user.click(await screen.findByRole('button', { name: 'Price history: gpt-test' }));
    expect(await within(screen.getByTestId('history-dialog')).findByRole('alert')).toHaveTextContent(
      'History is resting',
    );
  });

  it('saves the display currency, refusing a code that is not three letters', async () => {
    const sent = gateway((call) =>
      call.path === '/api/pricing/currency' ? json({ currency: 'USD', creditRate: 0.02 }) : undefined,
    );
    const user = userEvent.setup();
    renderPage(<PricingPage />, { path: '/pricing', url: '/pricing', role: 'HOST_ADMIN', companyId: null });
    const form = await screen.findByTestId('currency-form');
    await user.clear(within(form).getByLabelText('Currency'));
    await user.type(within(form).getByLabelText('Currency'), 'US');
    await user.click(within(form).getByRole('button', { name: 'Save currency' }));
    expect(await within(form).findByText('Use a three-letter code such as EUR')).toBeInTheDocument();
    await user.type(within(form).getByLabelText('Currency'), 'd');
    await user.clear(within(form).getByLabelText('Value of one credit'));
    await user.type(within(form).getByLabelText('Value of one credit'), '0.02');
    await user.click(within(form).getByRole('button', { name: 'Save currency' }));
    await waitFor(() =>
      expect(sent.find((call) => call.method === 'PUT')?.body).toEqual({ currency: 'USD', creditRate: 0.02 }),
    );
  });
});
