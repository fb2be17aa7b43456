/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// The models table says which models have no price (they are refused until one is set). Only the
// network is faked.
import { describe, expect, it } from '@jest/globals';
import { screen, within } from '@testing-library/react';
import type { AiModelDto } from '@earshot/contracts';
import { fakeGateway, json, renderPage } from '../../../test/fake-gateway';
import { ModelsSection } from './models-section';

const model = (id: string, name: string): AiModelDto => ({
  _id: id, providerId: 'p1', providerName: 'Local', name, label: name, purpose: 'chat', isDefault: false, contextSize: null, enabled: true,
  createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z',
});

describe('models section', () => {
  it('marks a model without a price in force, with a link to the pricing page', async () => {
    fakeGateway((call) => {
      if (call.path === '/api/ai/config/model') return json({ items: [model('m1', 'priced-model'), model('m2', 'free-rider')], page: 1, pageSize: 100, total: 2, totalPages: 1 });
      if (call.path === '/api/ai/config/provider') return json({ items: [{ _id: 'p1', name: 'Local' }], page: 1, pageSize: 100, total: 1, totalPages: 1 });
      if (call.path === '/api/pricing') return json({ currency: 'EUR', creditRate: 0.01, prices: [{ _id: 'x', modelId: 'm1', engine: null, modelName: 'priced-model', unit: 'input_1k', credits: 1, effectiveFrom: '2026-01-01T00:00:00.000Z', createdAt: '2026-01-01T00:00:00.000Z' }] });
      return undefined;
    });
    renderPage(<ModelsSection />, { path: '/ai-config', url: '/ai-config', role: 'HOST_ADMIN', companyId: null });
    const marks = await screen.findAllByTestId('model-no-price');
    expect(marks).toHaveLength(1);
    const row = screen.getAllByTestId('model-row').find((r) => r.getAttribute('data-model-id') === 'm2')!;
    expect(within(row).getByRole('link', { name: 'No price: this model cannot be used until one is set' })).toHaveAttribute('href', '/pricing');
  });
});
