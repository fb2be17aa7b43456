import { outboundPolicy, providerClient } from '../src';

describe('providerClient', () => {
  const endpoint = { baseUrl: 'https://api.example.test/v1', apiKey: 'sk-one' };
  const policy = outboundPolicy({ AI_ALLOW_PRIVATE_URLS: false });

  test('one client (and connection pool) per endpoint and settings', async () => {
    expect(await providerClient({ ...endpoint }, { ...policy }, 1000)).toBe(
      await providerClient({ ...endpoint }, { ...policy }, 1000),
    );
  });

  test('a changed key, URL, policy or timeout makes a new client', async () => {
    const first = await providerClient(endpoint, policy, 1000);
    expect(await providerClient({ ...endpoint, apiKey: 'sk-two' }, policy, 1000)).not.toBe(first);
    expect(await providerClient({ ...endpoint, baseUrl: 'https://other.example.test/v1' }, policy, 1000)).not.toBe(
      first,
    );
    expect(await providerClient(endpoint, { allowPrivate: true }, 1000)).not.toBe(first);
    expect(await providerClient(endpoint, policy, 2000)).not.toBe(first);
  });
});
