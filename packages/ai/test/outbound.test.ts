import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { aiConfigShape, BlockedUrlError, checkUrl, classifyAddress, guardedFetch, OUTBOUND_MESSAGES } from '../src';

describe('classifyAddress', () => {
  test.each([
    ['8.8.8.8', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['127.0.0.1', 'private'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['192.168.1.10', 'private'],
    ['100.64.0.1', 'private'],
    ['::1', 'private'],
    ['fd00::1', 'private'],
    ['169.254.169.254', 'blocked'],
    ['169.254.0.1', 'blocked'],
    ['fe80::1', 'blocked'],
    ['0.0.0.0', 'blocked'],
    ['::', 'blocked'],
    ['255.255.255.255', 'blocked'],
    ['224.0.0.1', 'blocked'],
    ['ff02::1', 'blocked'],
    ['not an address', 'blocked'],
  ])('%s is %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });

  test('IPv4 embedded in IPv6 is judged as the IPv4 address it carries', () => {
    expect(classifyAddress('::ffff:169.254.169.254')).toBe('blocked');
    expect(classifyAddress('::ffff:a9fe:a9fe')).toBe('blocked');
    expect(classifyAddress('::ffff:127.0.0.1')).toBe('private');
    expect(classifyAddress('::ffff:8.8.8.8')).toBe('public');
  });

  test.each([
    // IPv4-compatible (::/96), as URLs write [::127.0.0.1]
    ['::7f00:1', 'private'],
    ['::a9fe:a9fe', 'blocked'],
    ['::808:808', 'public'],
    // IPv4-translated (::ffff:0:0:0/96)
    ['::ffff:0:7f00:1', 'private'],
    ['::ffff:0:a9fe:a9fe', 'blocked'],
    // NAT64 (64:ff9b::/96)
    ['64:ff9b::7f00:1', 'private'],
    ['64:ff9b::a9fe:a9fe', 'blocked'],
    ['64:ff9b::6464:64c8', 'blocked'],
    ['64:ff9b::808:808', 'public'],
    // 6to4 (2002::/16)
    ['2002:7f00:1::1', 'private'],
    ['2002:a9fe:a9fe::1', 'blocked'],
    ['2002:808:808::1', 'public'],
  ])('embedded IPv4: %s is %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });

  test('cloud metadata addresses inside private ranges are blocked, not merely private', () => {
    expect(classifyAddress('fd00:ec2::254')).toBe('blocked');
    expect(classifyAddress('fd00:ec2:0:0:0:0:0:254')).toBe('blocked');
    expect(classifyAddress('100.100.100.200')).toBe('blocked');
    expect(classifyAddress('::ffff:100.100.100.200')).toBe('blocked');
    // Their neighbours stay what their range makes them.
    expect(classifyAddress('fd00:ec2::253')).toBe('private');
    expect(classifyAddress('100.100.100.201')).toBe('private');
  });
});

describe('checkUrl', () => {
  const reason = async (url: string, allowPrivate: boolean) => {
    try {
      await checkUrl(url, { allowPrivate });
      return 'allowed';
    } catch (error) {
      return error instanceof BlockedUrlError ? error.reason : `other: ${(error as Error).message}`;
    }
  };

  test('link-local and metadata addresses are refused in every written form', async () => {
    for (const url of [
      'http://169.254.169.254/latest',
      'http://[::ffff:169.254.169.254]/',
      'http://[::ffff:a9fe:a9fe]/',
      'http://[fe80::1]/',
      'http://0.0.0.0:8080/',
    ]) {
      expect(await reason(url, true)).toBe('blocked');
    }
  });

  test('private and loopback addresses only when allowed, names included', async () => {
    expect(await reason('http://127.0.0.1:11434/v1', false)).toBe('private');
    expect(await reason('http://localhost:11434/v1', false)).toBe('private');
    expect(await reason('http://[::1]:11434/v1', false)).toBe('private');
    expect(await reason('http://127.0.0.1:11434/v1', true)).toBe('allowed');
    expect(await reason('http://localhost:11434/v1', true)).toBe('allowed');
  });

  test('a trusted host name may be private; other names and addresses stay refused, blocked ones always', async () => {
    const trusted = async (url: string, trustedHosts: string[]) => {
      try {
        await checkUrl(url, { allowPrivate: false, trustedHosts });
        return 'allowed';
      } catch (error) {
        return error instanceof BlockedUrlError ? error.reason : `other: ${(error as Error).message}`;
      }
    };
    expect(await trusted('http://localhost:11434/v1', ['localhost'])).toBe('allowed');
    expect(await trusted('http://LOCALHOST:11434/v1', ['localhost'])).toBe('allowed');
    // Trusting a name is not trusting the address it resolves to, nor any other name.
    expect(await trusted('http://127.0.0.1:11434/v1', ['localhost'])).toBe('private');
    expect(await trusted('http://localhost:11434/v1', ['ollama'])).toBe('private');
    expect(await trusted('http://169.254.169.254/latest', ['169.254.169.254'])).toBe('blocked');
  });

  test('AI_TRUSTED_HOSTS is read as lower-case names', () => {
    expect(z.object(aiConfigShape).parse({ AI_TRUSTED_HOSTS: ' speaches, Ollama ,,' }).AI_TRUSTED_HOSTS).toEqual([
      'speaches',
      'ollama',
    ]);
    expect(z.object(aiConfigShape).parse({}).AI_TRUSTED_HOSTS).toEqual([]);
  });

  test('metadata and embedded-IPv4 URLs are refused even when private addresses are allowed', async () => {
    for (const url of [
      'http://[fd00:ec2::254]/latest/meta-data/',
      'http://100.100.100.200/latest/meta-data/',
      'http://[64:ff9b::a9fe:a9fe]/',
      'http://[2002:a9fe:a9fe::1]/',
      'http://[::169.254.169.254]/',
    ]) {
      expect(await reason(url, true)).toBe('blocked');
    }
  });

  test('[::127.0.0.1] is loopback: refused by default, like 127.0.0.1', async () => {
    expect(await reason('http://[::127.0.0.1]:8080/v1', false)).toBe('private');
    expect(await reason('http://[64:ff9b::127.0.0.1]/v1', false)).toBe('private');
    expect(await reason('http://[2002:7f00:1::1]/v1', false)).toBe('private');
    expect(await reason('http://[::127.0.0.1]:8080/v1', true)).toBe('allowed');
  });

  test('schemes other than http(s) are refused', async () => {
    expect(await reason('ftp://8.8.8.8/', true)).toBe('scheme');
    expect(await reason('file:///etc/passwd', true)).toBe('scheme');
  });
});

describe('guardedFetch', () => {
  let server: Server;
  let base: string;
  /** Another origin (another port): it records what each request carried. */
  let elsewhere: Server;
  let elsewhereBase: string;
  const received: { url?: string; authorization?: string; apiKey?: string; xApiKey?: string; method?: string }[] = [];
  beforeAll(async () => {
    elsewhere = createServer((req, res) => {
      received.push({
        url: req.url,
        method: req.method,
        authorization: req.headers.authorization,
        apiKey: req.headers['api-key'] as string | undefined,
        xApiKey: req.headers['x-api-key'] as string | undefined,
      });
      res.end('elsewhere');
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    elsewhereBase = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
    server = createServer((req, res) => {
      if (req.url === '/headers')
        return res.end(
          JSON.stringify({ authorization: req.headers.authorization ?? null, apiKey: req.headers['api-key'] ?? null }),
        );
      if (req.url === '/to-headers') {
        res.writeHead(302, { location: '/headers' });
        return res.end();
      }
      if (req.url?.startsWith('/to-elsewhere')) {
        res.writeHead(req.url.endsWith('307') ? 307 : 302, { location: `${elsewhereBase}/models` });
        return res.end();
      }
      if (req.url === '/ok') return res.end('fine');
      if (req.url === '/echo') {
        let body = '';
        req.on('data', (chunk: Buffer) => (body += chunk.toString()));
        return req.on('end', () => res.end(JSON.stringify({ type: req.headers['content-type'], body })));
      }
      if (req.url === '/to-ok') {
        res.writeHead(302, { location: '/ok' });
        return res.end();
      }
      if (req.url === '/to-metadata') {
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
        return res.end();
      }
      if (req.url === '/to-mapped') {
        res.writeHead(307, { location: 'http://[::ffff:169.254.169.254]/' });
        return res.end();
      }
      if (req.url === '/loop') {
        res.writeHead(302, { location: '/loop' });
        return res.end();
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await new Promise<void>((resolve) => elsewhere.close(() => resolve()));
  });

  test('follows redirects that stay allowed', async () => {
    const res = await guardedFetch({ allowPrivate: true })(`${base}/to-ok`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('fine');
  });

  test('a redirect within the origin keeps the credentials', async () => {
    const res = await guardedFetch({ allowPrivate: true })(`${base}/to-headers`, {
      headers: { authorization: 'Bearer sk-same-origin', 'api-key': 'azure-key' },
    });
    expect(await res.json()).toEqual({ authorization: 'Bearer sk-same-origin', apiKey: 'azure-key' });
  });

  test('a redirect to another origin never carries the provider key', async () => {
    received.length = 0;
    const fetcher = guardedFetch({ allowPrivate: true });
    const headers = {
      authorization: 'Bearer sk-must-stay-home',
      'api-key': 'azure-must-stay-home',
      'x-api-key': 'x-must-stay-home',
    };
    expect(await (await fetcher(`${base}/to-elsewhere`, { headers })).text()).toBe('elsewhere');
    // A 307 keeps method and body, still without the key; a Headers object is handled the same.
    await fetcher(`${base}/to-elsewhere-307`, { method: 'POST', body: '{}', headers: new Headers(headers) });
    // An audio upload (what transcription sends) likewise.
    const form = new FormData();
    form.append('file', new Blob([Buffer.from('RIFF-audio')], { type: 'audio/wav' }), 'audio.wav');
    await fetcher(`${base}/to-elsewhere-307`, { method: 'POST', body: form, headers });
    expect(received).toEqual([
      { url: '/models', method: 'GET', authorization: undefined, apiKey: undefined, xApiKey: undefined },
      { url: '/models', method: 'POST', authorization: undefined, apiKey: undefined, xApiKey: undefined },
      { url: '/models', method: 'POST', authorization: undefined, apiKey: undefined, xApiKey: undefined },
    ]);
  });

  test('checks every redirect hop: a hop to the metadata address is refused', async () => {
    const fetcher = guardedFetch({ allowPrivate: true });
    await expect(fetcher(`${base}/to-metadata`)).rejects.toMatchObject({
      name: 'BlockedUrlError',
      reason: 'blocked',
      message: OUTBOUND_MESSAGES.blocked,
    });
    await expect(fetcher(`${base}/to-mapped`)).rejects.toMatchObject({ reason: 'blocked' });
  });

  test('a loopback host is refused at connect time when private addresses are not allowed', async () => {
    await expect(guardedFetch({ allowPrivate: false })(`${base}/ok`)).rejects.toMatchObject({ reason: 'private' });
    // By name too: the resolved address is checked when the connection is made.
    const port = new URL(base).port;
    await expect(guardedFetch({ allowPrivate: false })(`http://localhost:${port}/ok`)).rejects.toMatchObject({
      reason: 'private',
    });
  });

  test('a multipart body (as the SDK sends audio) arrives as multipart', async () => {
    const form = new FormData();
    form.append('model', 'whisper-1');
    form.append('file', new Blob([Buffer.from('RIFF-audio')], { type: 'audio/wav' }), 'audio.wav');
    const res = await guardedFetch({ allowPrivate: true })(`${base}/echo`, {
      method: 'POST',
      body: form,
      headers: { authorization: 'Bearer k' },
    });
    const echoed = (await res.json()) as { type: string; body: string };
    expect(echoed.type).toMatch(/^multipart\/form-data; boundary=/);
    expect(echoed.body).toContain('name="model"\r\n\r\nwhisper-1');
    expect(echoed.body).toContain('filename="audio.wav"');
    expect(echoed.body).toContain('RIFF-audio');
  });

  test('endless redirects stop', async () => {
    await expect(guardedFetch({ allowPrivate: true }, 3)(`${base}/loop`)).rejects.toMatchObject({
      reason: 'redirects',
    });
  });
});
