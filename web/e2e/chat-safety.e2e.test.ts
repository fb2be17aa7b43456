// What an AI reply and a question cannot carry out of Earshot, in real Chromium against the real
// all-in-one server with the kit's fake provider: an image of another host in a reply is never
// fetched (the reply shows it as a link, and the CSP's img-src allows Earshot's own images only),
// and with the company's redaction on, a card number typed into a question is removed before it is
// stored or sent, and the person is told. Waits for conditions, never for time.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { Page } from 'playwright-core';
import { connectFakeChatModel, fakeProviderSuite } from './fake-provider';
import { apiSession, priceChatModelsFree, signIn, waitFor } from './harness';

jest.setTimeout(300_000);

/** A one-pixel PNG server on loopback that counts what it is asked for. */
const pixel = { server: null as Server | null, port: 0, requests: [] as string[] };
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const suite = fakeProviderSuite();

beforeAll(async () => {
  pixel.server = createServer((request, response) => {
    pixel.requests.push(request.url ?? '');
    response.writeHead(200, { 'content-type': 'image/png', 'content-length': PNG.length });
    response.end(PNG);
  });
  await new Promise<void>((resolve) => pixel.server!.listen(0, '127.0.0.1', resolve));
  pixel.port = (pixel.server.address() as AddressInfo).port;
  const host = await apiSession(suite.server.origin, 'HOST_ADMIN');
  await connectFakeChatModel(host, suite.fake, { provider: 'Safety fake', label: 'Safety GPT' });
  await priceChatModelsFree(host);
});
afterAll(async () => {
  await new Promise<void>((resolve) => (pixel.server?.listening ? pixel.server.close(() => resolve()) : resolve()));
  pixel.server = null;
});

const lastReply = (page: Page) => page.getByTestId('assistant-message').last();

async function chatPage(): Promise<Page> {
  const page = await suite.open();
  await signIn(page, suite.server.origin, 'USER');
  await page.goto(`${suite.server.origin}/chat`);
  await page.getByRole('heading', { name: "What's on the agenda today?" }).waitFor();
  return page;
}

async function ask(page: Page, question: string): Promise<void> {
  await page.getByPlaceholder('Ask Anything...').fill(question);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
}

describe('an AI reply', () => {
  it('shows an image of another host as a link, and the browser never requests it', async () => {
    const page = await chatPage();
    // What the page's CSP refuses is reported to the console, naming the directive.
    const refused: string[] = [];
    page.on('console', (message) => {
      if (/Content.Security.Policy/i.test(message.text())) refused.push(message.text());
    });
    const url = `http://127.0.0.1:${pixel.port}/pixel.png?d=conversation-secret`;
    suite.fake.queueReply({ pieces: ['Here is the chart: ', `![x](${url})`, ' done.'] });
    await ask(page, 'Draw me a chart');
    const reply = lastReply(page).and(page.locator('[data-phase="complete"]'));
    await reply.getByText('done.').waitFor();
    const link = reply.getByRole('link', { name: 'x', exact: true });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe(url);
    expect(await reply.locator('img').count()).toBe(0);

    // The stored reply, read again after a reload, is shown the same way.
    await page.reload();
    await lastReply(page).getByRole('link', { name: 'x', exact: true }).waitFor();

    // An <img> of that host put in the page by any other way is refused by the CSP, not fetched.
    await page.evaluate((src) => {
      const img = document.createElement('img');
      img.src = src;
      img.id = 'csp-probe';
      document.body.append(img);
    }, `http://127.0.0.1:${pixel.port}/probe.png`);
    await waitFor(
      () =>
        page.evaluate(() => {
          const img = document.getElementById('csp-probe') as HTMLImageElement | null;
          return Boolean(img && img.complete && img.naturalWidth === 0);
        }),
      'the probe image to be refused',
    );
    await waitFor(async () => refused.length > 0, 'the CSP to report the refused image');
    expect(refused.join('\n')).toContain(`"img-src 'self' data: blob:"`);
    expect(pixel.requests).toEqual([]);
  });
});

describe('a question, with the company’s redaction on', () => {
  it('has its card number removed before it is stored or sent, and the person sees a notice', async () => {
    const host = await apiSession(suite.server.origin, 'HOST_ADMIN');
    const user = await apiSession(suite.server.origin, 'USER');
    const { companyId } = (await (await user('/users/profile')).json()) as { companyId: string };
    const policies = (await (await host(`/companies/${companyId}/policies`)).json()) as Record<string, unknown>;
    expect(
      (await host(`/companies/${companyId}/policies`, { method: 'PUT', json: { ...policies, redaction: 'text' } }))
        .status,
    ).toBe(200);
    // The chat service learns the policy from an event: a title with a card number comes back redacted once it has.
    await waitFor(async () => {
      const made = await user('/chat/conversations', { json: { title: 'probe 4111 1111 1111 1111' } });
      return ((await made.json()) as { title: string }).title === 'probe [card number]';
    }, 'the chat service to redact for the company');

    const page = await chatPage();
    suite.fake.queueReply({ pieces: ['Noted.'] });
    await ask(page, 'Charge card:4111–1111–1111–1111, please');
    await lastReply(page).and(page.locator('[data-phase="complete"]')).getByText('Noted.').waitFor();
    const notice = page.getByTestId('question-redacted');
    await notice.waitFor();
    expect(await notice.textContent()).toContain('Removed from your question before it was stored or sent to the AI');
    expect(await page.getByTestId('user-message').last().textContent()).toBe('Charge card:[card number], please');
    const sent = JSON.stringify(suite.fake.requests.at(-1)!.body);
    expect(sent).toContain('Charge card:[card number], please');
    expect(sent).not.toMatch(/4111/);
    // The stored question, after a reload, is the redacted one.
    await page.reload();
    await page.getByTestId('user-message').last().getByText('Charge card:[card number], please').waitFor();
  });
});
