/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// The models table says which models have no price (they are refused until one is set). Only the
// network is faked.
import { describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AiModelDto } from '@earshot/contracts';
import { fakeGateway, json, renderPage } from '../../../test/fake-gateway';
import { ModelsSection } from './models-section';

const model = (id: string, name: string): AiModelDto => ({
  _id: id,
  providerId: 'p1',
  providerName: 'Local',
  name,
  label: name,
  purpose: 'chat',
  isDefault: false,
  contextSize: null,
  enabled: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

describe('models section', () => {
  it('marks a model without a price in force, with a link to the pricing page', async () => {
    fakeGateway((call) => {
      if (call.path === '/api/ai/config/model')
        return json({
          items: [model('m1', 'priced-model'), model('m2', 'free-rider')],
          page: 1,
          pageSize: 100,
          total: 2,
          totalPages: 1,
        });
      if (call.path === '/api/ai/config/provider')
        return json({ items: [{ _id: 'p1', name: 'Local' }], page: 1, pageSize: 100, total: 1, totalPages: 1 });
      if (call.path === '/api/pricing')
        return json({
          currency: 'EUR',
          creditRate: 0.01,
          prices: [
            {
              _id: 'x',
              modelId: 'm1',
              engine: null,
              modelName: 'priced-model',
              unit: 'input_1k',
              credits: 1,
              effectiveFrom: '2026-01-01T00:00:00.000Z',
              createdAt: '2026-01-01T00:00:00.000Z',
            },
          ],
        });
      return undefined;
    });
    renderPage(<ModelsSection />, { path: '/ai-config', url: '/ai-config', role: 'HOST_ADMIN', companyId: null });
    const marks = await screen.findAllByTestId('model-no-price');
    expect(marks).toHaveLength(1);
    const row = screen.getAllByTestId('model-row').find((r) => r.getAttribute('data-model-id') === 'm2')!;
    expect(
      within(row).getByRole('link', { name: 'No price: this model cannot be used until one is set' }),
    ).toHaveAttribute('href', '/pricing');
  });

  it('keeps a refused delete’s reason above the list until a delete goes through', async () => {
    let refuse = true;
    const sent = fakeGateway((call) => {
      if (call.path === '/api/ai/config/model' && call.method === 'GET')
        return json({
          items: [model('m1', 'in-use'), model('m2', 'spare')],
          page: 1,
          pageSize: 100,
          total: 2,
          totalPages: 1,
        });
      if (call.path === '/api/ai/config/provider')
        return json({ items: [{ _id: 'p1', name: 'Local' }], page: 1, pageSize: 100, total: 1, totalPages: 1 });
      if (call.path === '/api/pricing') return json({ currency: 'EUR', creditRate: 0.01, prices: [] });
      if (call.method === 'DELETE')
        return refuse ? json({ message: 'The model is used by a custom GPT', code: 'CONFLICT' }, 409) : { status: 204 };
      return undefined;
    });
    const user = userEvent.setup();
    renderPage(<ModelsSection />, { path: '/ai-config', url: '/ai-config', role: 'HOST_ADMIN', companyId: null });
    const rowOf = async (id: string) =>
      (await screen.findAllByTestId('model-row')).find((r) => r.getAttribute('data-model-id') === id)!;
    await user.click(within(await rowOf('m1')).getByRole('button', { name: 'Delete' }));
    await user.click(screen.getByTestId('confirm-yes'));
    expect(await within(screen.getByTestId('models-section')).findByRole('alert')).toHaveTextContent(
      'The model is used by a custom GPT',
    );
    refuse = false;
    await user.click(within(await rowOf('m2')).getByRole('button', { name: 'Delete' }));
    await user.click(screen.getByTestId('confirm-yes'));
    await waitFor(() => expect(within(screen.getByTestId('models-section')).queryByRole('alert')).toBeNull());
    expect(sent.filter((call) => call.method === 'DELETE').map((call) => call.path)).toEqual([
      '/api/ai/config/model/m1',
      '/api/ai/config/model/m2',
    ]);
  });
});
