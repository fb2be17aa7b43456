import { outboundPolicy, providerClient } from '../src';

describe('providerClient', () => {
  const endpoint = { baseUrl: 'https://api.example.test/v1', apiKey: 'sk-one' };
  const policy = outboundPolicy({ AI_ALLOW_PRIVATE_URLS: false });

  test('one client (and connection pool) per endpoint and settings', () => {
    expect(providerClient({ ...endpoint }, { ...policy }, 1000)).toBe(
      providerClient({ ...endpoint }, { ...policy }, 1000),
    );
  });

  test('a changed key, URL, policy or timeout makes a new client', () => {
    const first = providerClient(endpoint, policy, 1000);
    expect(providerClient({ ...endpoint, apiKey: 'sk-two' }, policy, 1000)).not.toBe(first);
    expect(providerClient({ ...endpoint, baseUrl: 'https://other.example.test/v1' }, policy, 1000)).not.toBe(first);
    expect(providerClient(endpoint, { allowPrivate: true }, 1000)).not.toBe(first);
    expect(providerClient(endpoint, policy, 2000)).not.toBe(first);
  });
});
