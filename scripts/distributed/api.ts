import { ACCESS_COOKIE, CSRF_HEADER } from '@earshot/kit';

/** Someone signed in through the gateway: the access token their own sign-in answered. */
export interface Session {
  email: string;
  userId: string;
  token: string;
}

export interface Answer<T = unknown> {
  status: number;
  body: T;
  text: string;
}

/** HTTP to the gateway only: every request the suite makes of the product goes through here. */
export class GatewayClient {
  constructor(readonly origin: string) {}

  async signIn(email: string, password: string, domain?: string): Promise<Session> {
    const response = await fetch(`${this.origin}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [CSRF_HEADER]: 'XMLHttpRequest' },
      body: JSON.stringify({ email, password, ...(domain ? { domain } : {}) }),
    });
    const text = await response.text();
    const token = response.headers
      .getSetCookie()
      .map((line) => line.split(';')[0]!)
      .find((pair) => pair.startsWith(`${ACCESS_COOKIE}=`))
      ?.slice(ACCESS_COOKIE.length + 1);
    if (response.status !== 200 || !token)
      throw new Error(`signing in ${email} answered ${response.status}: ${text.slice(0, 300)}`);
    return { email, userId: (JSON.parse(text) as { user: { _id: string } }).user._id, token };
  }

  async call<T = unknown>(who: Session, method: string, path: string, body?: unknown): Promise<Answer<T>> {
    const response = await fetch(`${this.origin}/api${path}`, {
      method,
      headers: {
        authorization: `Bearer ${who.token}`,
        [CSRF_HEADER]: 'XMLHttpRequest',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON (an event stream, a download): the text is the body.
    }
    return { status: response.status, body: parsed as T, text };
  }

  /** The call, which must answer `status`; its body. */
  async expect<T = unknown>(status: number, who: Session, method: string, path: string, body?: unknown): Promise<T> {
    const answer = await this.call<T>(who, method, path, body);
    if (answer.status !== status)
      throw new Error(
        `${method} /api${path} answered ${answer.status}, expected ${status}: ${answer.text.slice(0, 500)}`,
      );
    return answer.body;
  }

  /** A provider in AI Configuration and its model for `purpose`, the default one: the model's id. */
  async defaultModel(
    host: Session,
    provider: { name: string; baseUrl: string; apiKey: string },
    model: { name: string; purpose: 'chat' | 'speech-to-text' },
  ): Promise<string> {
    const { _id: providerId } = await this.expect<{ _id: string }>(201, host, 'POST', '/ai/config/provider', provider);
    const { _id } = await this.expect<{ _id: string }>(201, host, 'POST', '/ai/config/model', {
      providerId,
      ...model,
      isDefault: true,
    });
    return _id;
  }

  async upload<T>(
    who: Session,
    path: string,
    file: { name: string; type: string; data: Buffer },
    fields: Record<string, string> = {},
  ): Promise<Answer<T>> {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.append(key, value);
    form.append('file', new Blob([file.data], { type: file.type }), file.name);
    const response = await fetch(`${this.origin}/api${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${who.token}`, [CSRF_HEADER]: 'XMLHttpRequest' },
      body: form,
    });
    const text = await response.text();
    return { status: response.status, body: (text.startsWith('{') ? JSON.parse(text) : text) as T, text };
  }

  /** A chat reply's server-sent events, read to the end: its `done` event's data, or why there was none. */
  async stream(
    who: Session,
    path: string,
    body: unknown,
  ): Promise<{ status: number; done: Record<string, unknown> | null; text: string }> {
    const answer = await this.call(who, 'POST', path, body);
    const done = /event: done\ndata: (.*)/.exec(answer.text)?.[1];
    return {
      status: answer.status,
      done: done ? (JSON.parse(done) as Record<string, unknown>) : null,
      text: answer.text,
    };
  }
}
