import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/**
 * A real OpenID provider (oidc-provider, the certified implementation) on 127.0.0.1 for the single
 * sign-on tests: one client per company, and accounts whose claims the tests choose. Its built-in
 * development screens ask for a login (any name: the account id) and then for consent.
 */

export interface TestAccount {
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
  groups?: string[];
}

export interface TestClient {
  clientId: string;
  clientSecret: string;
}

export interface IdentityProvider {
  issuer: string;
  clients: TestClient[];
  /** Accounts by id (the login typed on the provider's page); change them between sign-ins. */
  accounts: Map<string, TestAccount>;
  close(): Promise<void>;
}

export async function startIdentityProvider(options: {
  clients: TestClient[];
  redirectUris: string[];
}): Promise<IdentityProvider> {
  const accounts = new Map<string, TestAccount>();
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: options.clients.map((c) => ({
      client_id: c.clientId,
      client_secret: c.clientSecret,
      redirect_uris: options.redirectUris,
      response_types: ['code'],
      grant_types: ['authorization_code'],
    })),
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name', 'groups'],
    },
    // The claims of the scopes asked for go into the ID token itself, which is what Earshot reads.
    conformIdTokenClaims: false,
    cookies: { keys: ['earshot-test-identity-provider'] },
    ttl: { Interaction: 600, Session: 600, Grant: 600, AccessToken: 600, AuthorizationCode: 60, IdToken: 600 },
    features: { devInteractions: { enabled: true } },
    findAccount: (_ctx, id) => {
      const account = accounts.get(id);
      if (!account) return undefined;
      const name = [account.given_name, account.family_name].filter(Boolean).join(' ');
      return { accountId: id, claims: () => ({ sub: id, ...(name ? { name } : {}), ...account }) };
    },
  });
  const handle = provider.callback();
  server.on('request', (req, res) => void handle(req, res));
  return {
    issuer,
    clients: options.clients,
    accounts,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Cookies of one browser towards the provider, kept across its redirects. */
class CookieJar {
  private readonly cookies = new Map<string, string>();

  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      const value = pair!.slice(at + 1);
      if (value === '') this.cookies.delete(pair!.slice(0, at));
      else this.cookies.set(pair!.slice(0, at), value);
    }
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/**
 * Plays the browser at the provider, over plain HTTP: from the authorization URL through the login
 * (as `login`) and consent screens to the redirect back to Earshot, whose URL it answers.
 */
export async function signInAtProvider(authorizationUrl: string, login: string, redirectUri: string): Promise<URL> {
  const jar = new CookieJar();
  let url = new URL(authorizationUrl);
  let form: URLSearchParams | null = null;
  for (let hop = 0; hop < 20; hop += 1) {
    const response: Response = await fetch(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: jar.header(),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form ?? undefined,
    });
    jar.store(response);
    form = null;
    const location = response.headers.get('location');
    if (location) {
      url = new URL(location, url);
      if (url.href.startsWith(redirectUri)) return url;
      await response.arrayBuffer();
      continue;
    }
    const page: string = await response.text();
    if (response.status !== 200) throw new Error(`the provider answered ${response.status}: ${page.slice(0, 500)}`);
    // The development screens: a login form, then a consent form, both posted back to the same address.
    const prompt: string | undefined = /name="prompt" value="(\w+)"/.exec(page)?.[1];
    if (prompt === 'login') form = new URLSearchParams({ prompt, login, password: 'any' });
    else if (prompt === 'consent') form = new URLSearchParams({ prompt });
    else throw new Error(`unexpected provider page: ${page.slice(0, 500)}`);
  }
  throw new Error('the provider never sent the browser back');
}
