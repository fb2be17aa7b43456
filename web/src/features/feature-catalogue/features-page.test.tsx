/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// The features page with the app's store and RTK Query API; only `fetch` is faked.
import { describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeGateway, renderPage } from '../../../test/fake-gateway';
import FeaturesPage from './features-page';

const ACME = '00000000-0000-4000-8000-0000000000c1';
const catalogueItems = [
  { key: 'chat', name: 'Main chat', description: 'Chat', defaultEnabled: true, enabled: true },
  { key: 'clients', name: 'Clients', description: 'Clients', defaultEnabled: true, enabled: false },
];

describe('features page', () => {
  it('saves a company’s switches together and flags what the platform has switched off', async () => {
    let chat = true;
    const sent = fakeGateway((request) => {
      if (request.path === '/api/features') return { status: 200, body: catalogueItems };
      if (request.path === '/api/companies/dropdown') return { status: 200, body: [{ _id: ACME, name: 'Acme' }] };
      if (request.path === `/api/companies/${ACME}/features` && request.method === 'GET')
        return {
          status: 200,
          body: [
            { ...catalogueItems[0], enabled: chat },
            { ...catalogueItems[1], enabled: true },
          ],
        };
      if (request.path === `/api/companies/${ACME}/features` && request.method === 'PUT') {
        chat = false;
        return { status: 200, body: [] };
      }
      return undefined;
    });
    const user = userEvent.setup();
    renderPage(<FeaturesPage />, { path: '/features', url: '/features', role: 'HOST_ADMIN', companyId: null });
    await screen.findByRole('option', { name: 'Acme' });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Company' }), 'Acme');
    const list = await screen.findByTestId('company-features-list');
    expect(within(list).getByText('Off for the whole platform')).toBeInTheDocument();
    expect(screen.getByTestId('company-features-save')).toBeDisabled();
    await user.click(within(list).getByRole('switch', { name: 'Main chat' }));
    await user.click(screen.getByTestId('company-features-save'));
    await waitFor(() =>
      expect(sent.find((request) => request.method === 'PUT')?.body).toEqual({ features: { chat: false } }),
    );
    expect(await screen.findByText('Features saved')).toBeInTheDocument();
    await waitFor(() =>
      expect(
        within(screen.getByTestId('company-features-list')).getByRole('switch', { name: 'Main chat' }),
      ).toHaveAttribute('aria-checked', 'false'),
    );
  });

  it('switches a feature for the whole platform, and says so when the server refuses', async () => {
    const sent = fakeGateway((request) => {
      if (request.path === '/api/features') return { status: 200, body: catalogueItems };
      if (request.path === '/api/companies/dropdown') return { status: 200, body: [] };
      if (request.path === '/api/features/chat')
        return { status: 403, body: { message: 'Your role does not allow this' } };
      return undefined;
    });
    const user = userEvent.setup();
    renderPage(<FeaturesPage />, { path: '/features', url: '/features', role: 'HOST_ADMIN', companyId: null });
    const platform = await screen.findByTestId('platform-features');
    await user.click(await within(platform).findByRole('switch', { name: 'Main chat' }));
    expect(sent.find((request) => request.method === 'PUT')).toMatchObject({
      path: '/api/features/chat',
      body: { enabled: false },
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('Your role does not allow this');
  });
});
