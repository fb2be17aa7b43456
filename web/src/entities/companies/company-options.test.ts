/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// Every company dropdown reads the one query here, which provides { type: 'Company', id: 'LIST' }:
// the tag the companies page's create, edit, delete and hold mutations invalidate. Invalidating it
// must send the dropdown back to the server, so each page's picker shows the change. With the app's
// store and RTK Query API; only `fetch` is faked.
import { describe, expect, it } from '@jest/globals';
import { waitFor } from '@testing-library/react';
import { api } from '../../lib/api';
import { makeStore } from '../../lib/store';
import { fakeGateway, json } from '../../../test/fake-gateway';
import { companyOptionsApi } from './index';

describe('the companies dropdown', () => {
  it('is fetched once for every reader, and again when a company mutation invalidates the list', async () => {
    let companies = [{ _id: 'c1', name: 'Acme' }];
    const calls = fakeGateway((call) =>
      call.path === '/api/companies/dropdown' && call.method === 'GET' ? json(companies) : undefined,
    );
    const store = makeStore();
    const first = store.dispatch(companyOptionsApi.endpoints.companyOptions.initiate());
    const second = store.dispatch(companyOptionsApi.endpoints.companyOptions.initiate());
    expect((await first).data).toEqual([{ _id: 'c1', name: 'Acme' }]);
    await second;
    expect(calls.filter((call) => call.path === '/api/companies/dropdown')).toHaveLength(1);

    companies = [...companies, { _id: 'c2', name: 'Beta' }];
    store.dispatch(api.util.invalidateTags([{ type: 'Company', id: 'LIST' }]));
    await waitFor(() =>
      expect(companyOptionsApi.endpoints.companyOptions.select()(store.getState()).data).toEqual(companies),
    );
    expect(calls.filter((call) => call.path === '/api/companies/dropdown')).toHaveLength(2);
    first.unsubscribe();
    second.unsubscribe();
  });
});
