// Chat and AI configuration in real Chromium against the real all-in-one server (`npm start`), with
// a real local OpenAI-compatible provider (the kit's fake, speaking the documented streaming
// format). Waits for conditions, never for time.
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals';
import type { Page } from 'playwright-core';
import { connectFakeChatModel, fakeProviderSuite } from './fake-provider';
import { apiSession, createUser, priceChatModelsFree, signIn, uploadTranscribed, type Account } from './harness';

jest.setTimeout(300_000);

const SHOTS = process.env.SCREENSHOT_DIR;
const suite = fakeProviderSuite();

async function signedIn(who: 'USER' | 'HOST_ADMIN' | Account): Promise<Page> {
  const page = await suite.open();
  await signIn(page, suite.server.origin, who);
  return page;
}

/** A new USER (no conversations yet) in the new-chat screen. */
async function newPerson(): Promise<Page> {
  const page = await signedIn(await createUser(suite.server.origin, 'USER'));
  await page.goto(`${suite.server.origin}/chat`);
  await page.getByRole('heading', { name: "What's on the agenda today?" }).waitFor();
  return page;
}

const lastReply = (page: Page) => page.getByTestId('assistant-message').last();

async function ask(page: Page, question: string): Promise<void> {
  await page.getByPlaceholder('Ask Anything...').fill(question);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
}

/** Records every text the streaming reply shows, from before the question is sent. */
async function recordStreamingTexts(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __texts: string[] }).__texts = seen;
    new MutationObserver(() => {
      const text =
        document.querySelector(
          '[data-testid="assistant-message"][data-phase="streaming"] [data-testid="assistant-text"]',
        )?.textContent ?? '';
      if (text && seen[seen.length - 1] !== text) seen.push(text);
    }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
}

/**
 * A recording of the demo company with two passages three seconds apart (espeak-ng, joined with
 * silence by sox), uploaded and transcribed through the API: something to ask about.
 */
async function spokenRecording(name: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'earshot-chat-e2e-'));
  try {
    const part = (file: string, text: string) => {
      execFileSync('espeak-ng', ['-s', '140', '-w', join(dir, file), text]);
      return join(dir, file);
    };
    const wav = join(dir, name);
    execFileSync('sox', [
      part('a.wav', 'Good morning. I would like to ask about my invoice.'),
      join(dir, 'pad.wav'),
      'pad',
      '0',
      '3',
    ]);
    execFileSync('sox', [
      join(dir, 'pad.wav'),
      part('b.wav', 'The invoice was sent twice, please merge the accounts.'),
      wav,
    ]);
    return await uploadTranscribed(await apiSession(suite.server.origin, 'USER'), wav);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('chat with the built-in search assistant (no model configured)', () => {
  it('asks about one recording from /chat?transcript=…, and a cited passage opens the viewer at its moment', async () => {
    const fileId = await spokenRecording('ask-about.wav');
    const page = await signedIn('USER');
    await page.goto(`${suite.server.origin}/chat?transcript=${fileId}`);
    const banner = page.getByTestId('recording-banner');
    await banner.getByText('About the recording ask-about.wav').waitFor();
    expect(await banner.getByRole('link', { name: 'Open the recording' }).getAttribute('href')).toBe(
      `/transcripts/${fileId}`,
    );
    await ask(page, 'Summarize this recording');
    await page.waitForURL((url) => Boolean(url.searchParams.get('c')) && url.searchParams.get('transcript') === fileId);
    await lastReply(page).and(page.locator('[data-phase="complete"]')).waitFor();
    expect(await lastReply(page).getByTestId('message-markdown').textContent()).toContain(
      'I cannot summarise ask-about.wav: I can only quote it.',
    );
    if (SHOTS) await page.screenshot({ path: join(SHOTS, 'chat-about-recording.png') });

    // The later passage, about five seconds in: its source link names the speaker as the viewer does.
    const source = lastReply(page)
      .getByRole('link', { name: /^ask-about\.wav · Speaker 1 · 0:0[3-9]$/ })
      .last();
    const conversation = new URL(page.url()).searchParams.get('c');
    const href = await source.getAttribute('href');
    const seconds = Number(/\?t=(\d+)$/.exec(href ?? '')?.[1]);
    expect(seconds).toBeGreaterThanOrEqual(3);
    await source.click();
    await page.waitForURL(
      (url) => url.pathname === `/transcripts/${fileId}` && url.searchParams.get('t') === String(seconds),
    );
    await page.getByTestId('speaker-name').first().waitFor();
    expect(await page.getByTestId('speaker-name').first().textContent()).toBe('Speaker 1');
    // The viewer opened at the cited moment: the player's clock shows it, paused.
    await page
      .getByTestId('clock')
      .filter({ hasText: new RegExp(`^0:0${seconds} /`) })
      .waitFor();

    // "Ask about this recording" again goes on with the same conversation.
    await page.goto(`${suite.server.origin}/chat?transcript=${fileId}`);
    await page.waitForURL((url) => url.searchParams.get('c') === conversation);
    await lastReply(page).and(page.locator('[data-phase="complete"]')).waitFor();
  });

  it('answers a question with the built-in assistant, streamed', async () => {
    const page = await newPerson();
    await page.getByText('No conversations found.').waitFor();
    await page.getByTestId('built-in-notice').waitFor();
    await ask(page, 'What did the customer say about the invoice?');
    await page.waitForURL((url) => Boolean(url.searchParams.get('c')));
    await lastReply(page).and(page.locator('[data-phase="complete"]')).waitFor();
    await expect(lastReply(page).getByTestId('built-in-badge').textContent()).resolves.toBe(
      'Built-in search assistant',
    );
    expect((await lastReply(page).getByTestId('message-markdown').textContent())?.length).toBeGreaterThan(20);
    expect(await page.getByTestId('user-message').last().textContent()).toBe(
      'What did the customer say about the invoice?',
    );
    if (SHOTS) await page.screenshot({ path: join(SHOTS, 'chat-built-in.png') });
  });

  it('keeps thumbs-up feedback, and finds the conversation and the feedback after a reload', async () => {
    const page = await newPerson();
    await ask(page, 'What did the customer say about the invoice?');
    await lastReply(page).and(page.locator('[data-phase="complete"]')).waitFor();
    await lastReply(page).getByRole('button', { name: 'Good answer' }).click();
    // The comment box opens in view, above the message input, and Regenerate stays beside the thumbs.
    const thumb = (await lastReply(page).getByRole('button', { name: 'Good answer' }).boundingBox())!;
    const regenerate = (await lastReply(page).getByTestId('regenerate').boundingBox())!;
    expect(Math.abs(regenerate.y + regenerate.height / 2 - (thumb.y + thumb.height / 2))).toBeLessThan(
      thumb.height / 2,
    );
    const comment = (await lastReply(page).getByTestId('feedback-comment').boundingBox())!;
    const input = (await page.getByPlaceholder('Ask Anything...').boundingBox())!;
    expect(comment.y).toBeGreaterThan(0);
    expect(comment.y + comment.height).toBeLessThanOrEqual(input.y);
    if (SHOTS) await page.screenshot({ path: join(SHOTS, 'chat-feedback-comment.png') });
    await lastReply(page).getByLabel('Add a comment (optional)').fill('Useful');
    await lastReply(page).getByRole('button', { name: 'Send feedback' }).click();
    await lastReply(page).getByText('Thanks for your feedback: “Useful”').waitFor();
    const url = page.url();
    await page.reload();
    expect(page.url()).toBe(url);
    // The reloaded page opens the same conversation, highlighted in the list.
    await page.locator('[data-testid="conversation-item"] [aria-current="page"]').waitFor();
    await lastReply(page).and(page.locator('[data-phase="complete"]')).waitFor();
    await expect(
      lastReply(page).getByRole('button', { name: 'Good answer' }).getAttribute('aria-pressed'),
    ).resolves.toBe('true');
    await lastReply(page).getByText('Thanks for your feedback: “Useful”').waitFor();
  });

  it('searches the conversations on the server', async () => {
    const page = await newPerson();
    await ask(page, 'Anything about the invoice?');
    await lastReply(page).and(page.locator('[data-phase="complete"]')).waitFor();
    const search = page.getByPlaceholder('Search conversations');
    await search.fill('zebra-unicorn-nothing-matches');
    await page.getByText('No results found').waitFor();
    await search.fill('invoice');
    await page.getByTestId('conversation-item').first().waitFor();
  });
});

describe('chat with a configured OpenAI-compatible provider', () => {
  // The provider and default chat model every test of this block chats with, set up through the API.
  beforeAll(async () => {
    await connectFakeChatModel(await apiSession(suite.server.origin, 'HOST_ADMIN'), suite.fake, {
      provider: 'Fixture fake',
      label: 'Fixture GPT',
    });
  });

  it('a platform administrator connects the provider and a default chat model on /ai-config', async () => {
    const admin = await signedIn('HOST_ADMIN');
    await admin.getByRole('link', { name: 'AI config' }).click();
    await admin.getByRole('heading', { name: 'AI Configuration' }).waitFor();

    await admin.getByRole('button', { name: 'Add provider' }).click();
    const providerForm = admin.getByTestId('provider-form');
    await providerForm.getByLabel('Name').fill('Local fake');
    await providerForm.getByLabel('Base URL').fill(suite.fake.url);
    await providerForm.getByLabel('API key').fill('sk-test-secret-4321');
    await providerForm.getByRole('button', { name: 'Save' }).click();
    const providerRow = admin.getByTestId('provider-row').filter({ hasText: 'Local fake' });
    await providerRow.waitFor();
    expect(await providerRow.getByTestId('provider-key').textContent()).toBe('••••4321');
    expect(await admin.content()).not.toContain('sk-test-secret');
    await providerRow.getByRole('button', { name: 'Test connection' }).click();
    await providerRow.locator('[data-testid="test-result"][data-ok="true"]').waitFor();

    await admin.getByRole('button', { name: 'Add model' }).click();
    const modelForm = admin.getByTestId('model-form');
    await modelForm.getByLabel('Provider').selectOption({ label: 'Local fake' });
    // The same model name as the fixture's, on this provider: whichever is the default, the
    // fake is asked for 'fake-model'.
    await modelForm.getByLabel('Model name').fill('fake-model');
    await modelForm.getByLabel('Label').fill('Fake GPT');
    await modelForm.getByLabel('Purpose').selectOption('chat');
    await modelForm.getByLabel('Default').check();
    await modelForm.getByRole('button', { name: 'Save' }).click();
    const modelRow = admin.getByTestId('model-row').filter({ hasText: 'Local fake' });
    await modelRow.waitFor();
    await modelRow.getByRole('button', { name: 'Test connection' }).click();
    await modelRow.locator('[data-testid="test-result"][data-ok="true"]').waitFor();
    if (SHOTS) await admin.screenshot({ path: join(SHOTS, 'ai-config.png'), fullPage: true });
  });

  it('shows the server refusing a bad base URL at the field', async () => {
    const admin = await signedIn('HOST_ADMIN');
    await admin.goto(`${suite.server.origin}/ai-config`);
    await admin.getByRole('button', { name: 'Add provider' }).click();
    const form = admin.getByTestId('provider-form');
    await form.getByLabel('Name').fill('Metadata');
    await form.getByLabel('Base URL').fill('http://169.254.169.254/v1');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByTestId('field-error').waitFor();
    expect(await form.getByLabel('Base URL').getAttribute('aria-invalid')).toBe('true');
  });

  describe('a USER chatting', () => {
    /** A USER in the new-chat screen. */
    let page: Page;
    beforeAll(async () => priceChatModelsFree(await apiSession(suite.server.origin, 'HOST_ADMIN')));
    beforeEach(async () => {
      page = await signedIn('USER');
      await page.goto(`${suite.server.origin}/chat`);
      await page.getByRole('heading', { name: "What's on the agenda today?" }).waitFor();
    });

    it('streams the answer into the page piece by piece', async () => {
      expect(await page.getByTestId('built-in-notice').count()).toBe(0);
      suite.fake.queueReply({
        pieces: ['The agenda', ' has three', ' items:', ' budget, hiring', ' and travel.'],
        delayMs: 300,
      });
      await recordStreamingTexts(page);
      await ask(page, 'What is on the agenda?');
      await lastReply(page).and(page.locator('[data-phase="complete"]')).waitFor();
      const final = (await lastReply(page).getByTestId('message-markdown').textContent())?.trim();
      expect(final).toBe('The agenda has three items: budget, hiring and travel.');
      const texts = await page.evaluate(() => (window as unknown as { __texts: string[] }).__texts);
      const partial = [...new Set(texts.map((text) => text.trim()))].filter((text) => text && text !== final);
      expect(partial.length).toBeGreaterThanOrEqual(2);
      for (const text of partial) expect(final!.startsWith(text)).toBe(true);
      expect(suite.fake.requests.at(-1)?.body?.model).toBe('fake-model');
      if (SHOTS) await page.screenshot({ path: join(SHOTS, 'chat-streamed.png') });
    });

    it('stops a slow stream: the partial text stays, marked Stopped, and the provider call ends', async () => {
      suite.fake.queueReply({
        pieces: ['First part.', ' Second part.', ' Third.', ' Fourth.', ' Fifth.', ' Sixth.'],
        delayMs: 1500,
      });
      await ask(page, 'Tell me everything slowly');
      await lastReply(page).and(page.locator('[data-phase="streaming"]')).getByText('First part.').waitFor();
      await page.getByRole('button', { name: 'Stop' }).click();
      await lastReply(page).getByTestId('stopped-mark').waitFor();
      expect(await lastReply(page).getByTestId('message-markdown').textContent()).toContain('First part.');
      await expect(suite.fake.requests.at(-1)!.closed).resolves.toBe(true);
      // The server kept the partial reply as stopped.
      await page.reload();
      await lastReply(page).and(page.locator('[data-phase="stopped"]')).getByText('First part.').waitFor();
      await page.getByRole('button', { name: 'Send', exact: true }).waitFor();
    });

    it('renders a hostile reply inert: no handler, no script, no javascript: link', async () => {
      suite.fake.queueReply({
        pieces: [
          'Look <img src=x onerror="window.__xss=1"> and ',
          '[click](javascript:window.__xss=2) ',
          '<script>window.__xss=3</script> done.',
        ],
      });
      await ask(page, 'Show me something dangerous');
      await lastReply(page).and(page.locator('[data-phase="complete"]')).getByText('done.').waitFor();
      const reply = lastReply(page);
      expect(await reply.locator('[onerror]').count()).toBe(0);
      expect(await page.locator('img[onerror]').count()).toBe(0);
      expect(await reply.locator('script').count()).toBe(0);
      const link = reply.getByText('click', { exact: true });
      expect(await link.getAttribute('href')).toBeNull();
      await link.click();
      expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
      expect(new URL(page.url()).pathname).toBe('/chat');
    });

    it('shows the provider failing with Retry, and Retry then answers', async () => {
      suite.fake.queueReply({ error: { status: 500, message: 'The upstream model crashed', type: 'server_error' } });
      await ask(page, 'Are you there?');
      await lastReply(page).getByTestId('reply-error').waitFor();
      if (SHOTS) await page.screenshot({ path: join(SHOTS, 'chat-provider-error.png') });
      suite.fake.queueReply({ pieces: ['Yes,', ' I am back.'] });
      await lastReply(page).getByRole('button', { name: 'Retry' }).click();
      await lastReply(page).and(page.locator('[data-phase="complete"]')).getByText('Yes, I am back.').waitFor();
      expect(await page.getByTestId('reply-error').count()).toBe(0);
    });
  });
});
