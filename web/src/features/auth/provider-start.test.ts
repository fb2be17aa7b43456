import { describe, expect, it } from '@jest/globals';
import { loginErrorText } from './login-error';
import { providerStartUrl } from './provider-buttons';

const ORIGIN = 'http://acme.localhost:3000';

describe('provider sign-in start', () => {
  it('adds the keep-me-logged-in choice and the company subdomain to an enabled provider', () => {
    const url = providerStartUrl(
      { id: 'google', name: 'Google', enabled: true, startUrl: '/api/auth/provider/google/start' },
      ORIGIN,
      { remember: true, domain: 'acme' },
    );
    expect(url).toBe('http://acme.localhost:3000/api/auth/provider/google/start?remember=true&domain=acme');
    expect(
      providerStartUrl(
        { id: 'x', name: 'X', enabled: true, startUrl: '/api/auth/provider/x/start' },
        'http://localhost:3000',
        { remember: false, domain: null },
      ),
    ).toBe('http://localhost:3000/api/auth/provider/x/start?remember=false');
  });

  it('gives nothing for a provider that is not enabled, missing, or not http(s)', () => {
    expect(
      providerStartUrl({ id: 'google', name: 'Google', enabled: false }, ORIGIN, { remember: false, domain: null }),
    ).toBeNull();
    expect(providerStartUrl(undefined, ORIGIN, { remember: false, domain: null })).toBeNull();
    expect(
      providerStartUrl({ id: 'x', name: 'X', enabled: true, startUrl: 'javascript:alert(1)' }, ORIGIN, {
        remember: false,
        domain: null,
      }),
    ).toBeNull();
  });
});

describe('sign-in failure text', () => {
  it("shows the server's message, else 'Login failed'", () => {
    expect(loginErrorText({ status: 401, data: { message: 'Invalid email or password' } })).toBe(
      'Invalid email or password',
    );
    expect(loginErrorText({ status: 429, data: { message: 'Too many attempts, try again in 60 s' } })).toBe(
      'Too many attempts, try again in 60 s',
    );
    expect(loginErrorText({ status: 500, data: '<html>' })).toBe('Login failed');
    expect(loginErrorText({ status: 'FETCH_ERROR', error: 'offline' })).toBe('Login failed');
    expect(loginErrorText({ status: 401, data: { message: '  ' } }, 'Échec de la connexion')).toBe(
      'Échec de la connexion',
    );
  });
});
