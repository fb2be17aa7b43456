// Browser-test harness: the real all-in-one server (./server.ts) and Debian's Chromium through
// playwright-core.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect } from '@jest/globals';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { ADMIN_PASSWORD, DEMO_PASSWORD, startServer, waitFor, type RunningServer } from './server';

export { ADMIN_PASSWORD, DEMO_PASSWORD, startServer, waitFor, type RunningServer } from './server';

export const DEMO_ACCOUNTS = {
  HOST_ADMIN: { email: 'admin@earshot.local', password: ADMIN_PASSWORD },
  ADMIN: { email: 'admin@acme.test', password: DEMO_PASSWORD },
  USER: { email: 'user@acme.test', password: DEMO_PASSWORD },
  CALLER: { email: 'caller@acme.test', password: DEMO_PASSWORD },
} as const;
export type DemoRole = keyof typeof DEMO_ACCOUNTS;

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export type Theme = 'light' | 'dark';

/** What a browser profile starts with: its window size, and the console's theme or a saved session. */
export interface ProfileOptions {
  width?: number;
  height?: number;
  /** Saved as the console saves a choice (`theme` in the page's storage) before the first page loads. */
  theme?: Theme;
  /** Cookies and storage of a profile that signed in before (see `signedInState`). */
  storageState?: StorageState;
}

export type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

/** A fresh browser profile (empty storage and cookies unless `storageState`) at a desktop size. */
export async function newPage(
  browser: Browser,
  options: ProfileOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 860 },
    locale: 'en-US',
    storageState: options.storageState,
  });
  if (options.theme)
    await context.addInitScript((theme) => {
      if (localStorage.getItem('theme') === null) localStorage.setItem('theme', theme);
    }, options.theme);
  const page = await context.newPage();
  return { context, page };
}

/**
 * The server at another loopback name (`127.0.0.1` or `localhost`): the same server, but another
 * origin to the browser, with cookies and storage of its own.
 */
export function originAt(server: RunningServer, host: string): string {
  const url = new URL(server.origin);
  url.hostname = host;
  return url.origin;
}

export interface BrowserSuite {
  readonly server: RunningServer;
  readonly browser: Browser;
  /** A fresh browser profile, closed after the test that opened it. */
  open(options?: ProfileOptions): Promise<Page>;
}

/**
 * The lifecycle every browser test file shares: one server and one Chromium for the file, each
 * test's browser profiles closed after it so none leaks state into the next. `env` may first start
 * what the server must reach (a fake provider); `tearDown` stops it after the server.
 */
export function browserSuite(
  options: { env?: () => Promise<Record<string, string>>; tearDown?: () => Promise<void> } = {},
): BrowserSuite {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    // Chromium starts while the server does: neither needs the other.
    const [started, launched] = await Promise.allSettled([
      (options.env?.() ?? Promise.resolve({})).then(startServer),
      launchBrowser(),
    ]);
    if (started.status === 'fulfilled') server = started.value;
    if (launched.status === 'fulfilled') browser = launched.value;
    if (started.status === 'rejected') throw started.reason;
    if (launched.status === 'rejected') throw launched.reason;
  }, 600_000);
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await options.tearDown?.();
  }, 60_000);
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('The browser suite has not started');
    return value;
  };
  return {
    get server() {
      return started(server);
    },
    get browser() {
      return started(browser);
    },
    async open(options = {}) {
      const { context, page } = await newPage(started(browser), options);
      contexts.push(context);
      return page;
    },
  };
}

export interface Account {
  email: string;
  password: string;
}

export async function signIn(page: Page, origin: string, who: DemoRole | Account): Promise<void> {
  const account = typeof who === 'string' ? DEMO_ACCOUNTS[who] : who;
  await page.goto(`${origin}/signin`);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByTestId('user-menu').waitFor();
}

/**
 * Signs `who` in at `origin` once, in a profile of its own, and returns its cookies and storage:
 * profiles opened with them start signed in (a session's cookies belong to the address signed in at).
 */
export async function signedInState(browser: Browser, origin: string, who: DemoRole | Account): Promise<StorageState> {
  const { context, page } = await newPage(browser);
  try {
    await signIn(page, origin, who);
    return await context.storageState();
  } finally {
    await context.close();
  }
}

/** A signed-in API client (no browser): for the data a test needs before it opens a page. */
export type ApiClient = (
  path: string,
  init?: { method?: string; json?: unknown; form?: FormData },
) => Promise<Response>;

export async function apiSession(origin: string, who: DemoRole | Account): Promise<ApiClient> {
  const account = typeof who === 'string' ? DEMO_ACCOUNTS[who] : who;
  const login = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
    body: JSON.stringify({ email: account.email, password: account.password }),
  });
  if (!login.ok)
    throw new Error(`Signing in ${account.email} through the API failed: ${login.status} ${await login.text()}`);
  const cookie = login.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  return (path, init = {}) =>
    fetch(`${origin}/api${path}`, {
      method: init.method ?? (init.json || init.form ? 'POST' : 'GET'),
      headers: {
        cookie,
        'x-requested-with': 'XMLHttpRequest',
        ...(init.json ? { 'content-type': 'application/json' } : {}),
      },
      body: init.json ? JSON.stringify(init.json) : init.form,
    });
}

/** Uploads the recording at `wav` through `api` and waits until the server has transcribed it; returns its file id. */
export async function uploadTranscribed(api: ApiClient, wav: string): Promise<string> {
  const name = basename(wav);
  const form = new FormData();
  form.append('file', new Blob([await readFile(wav)], { type: 'audio/wav' }), name);
  const upload = await api('/files/upload', { form });
  if (upload.status !== 201) throw new Error(`Uploading ${name} failed: ${upload.status} ${await upload.text()}`);
  const { _id: fileId } = (await upload.json()) as { _id: string };
  let status = '';
  await waitFor(
    async () => {
      status = ((await (await api(`/transcripts/file/${fileId}`)).json()) as { status: string }).status;
      return status === 'completed';
    },
    `${name} to be transcribed`,
    () => (status === 'failed' ? `${name} failed to transcribe` : null),
  );
  return fileId;
}

/**
 * Prices every chat model that has no price yet at 0 credits per 1,000 input and output tokens:
 * the credit gate refuses a model without a price (409 MODEL_NOT_PRICED), and a suite about chat
 * or analysis is not about what it costs (credits.e2e is).
 */
export async function priceChatModelsFree(hostAdmin: ApiClient): Promise<void> {
  const models = (await (await hostAdmin('/ai/config/model?purpose=chat&pageSize=100')).json()) as {
    items: Array<{ _id: string }>;
  };
  const { prices } = (await (await hostAdmin('/pricing')).json()) as {
    prices: Array<{ modelId: string | null; unit: string }>;
  };
  for (const model of models.items) {
    for (const unit of ['input_1k', 'output_1k']) {
      if (prices.some((price) => price.modelId === model._id && price.unit === unit)) continue;
      const answer = await hostAdmin('/pricing', { json: { modelId: model._id, unit, credits: 0 } });
      if (answer.status !== 201)
        throw new Error(`Pricing model ${model._id} failed: ${answer.status} ${await answer.text()}`);
    }
  }
}

let created = 0;

/** A new person of the demo company with `role`, made by its ADMIN: for a test that needs an account nobody else used. */
export async function createUser(origin: string, role: 'USER' | 'CALLER'): Promise<Account> {
  created += 1;
  const account = { email: `e2e-${role.toLowerCase()}-${process.pid}-${created}@acme.test`, password: DEMO_PASSWORD };
  const admin = await apiSession(origin, 'ADMIN');
  const answer = await admin('/users/register', {
    json: { firstName: 'Test', lastName: `Person ${created}`, email: account.email, password: account.password, role },
  });
  if (answer.status !== 201)
    throw new Error(`Creating ${account.email} failed: ${answer.status} ${await answer.text()}`);
  return account;
}

/** Runs axe-core in the page and returns the serious and critical violations. */
export async function seriousViolations(
  page: Page,
): Promise<Array<{ id: string; impact: string; help: string; targets: string[] }>> {
  const source = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  // Evaluated through the DevTools protocol: the gateway's Content-Security-Policy (rightly) refuses inline scripts.
  await page.evaluate(source);
  const results = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            context: Document,
            options: object,
          ) => Promise<{
            violations: Array<{ id: string; impact: string; help: string; nodes: Array<{ target: string[] }> }>;
          }>;
        };
      }
    ).axe;
    const run = await axe.run(document, { resultTypes: ['violations'] });
    return run.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')),
    }));
  });
  return results.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/**
 * Light at 375 px, then dark and light at 1280 px: the page must not scroll sideways at 375 px,
 * and with SCREENSHOT_DIR set each is saved as `<name>-<width>-<theme>.png`.
 */
export async function shootThemes(page: Page, name: string, height = 860): Promise<void> {
  const shots = process.env.SCREENSHOT_DIR;
  for (const [width, theme] of [
    [375, 'light'],
    [1280, 'dark'],
    [1280, 'light'],
  ] as const) {
    await page.evaluate((dark) => document.documentElement.classList.toggle('dark', dark), theme === 'dark');
    await page.setViewportSize({ width, height });
    // At phone width the layout turns the sidebar into a drawer: measure once its transition is
    // over (two frames for it to start, then every running animation finished).
    await page.evaluate(async () => {
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      await Promise.all(document.getAnimations().map((animation) => animation.finished));
    });
    if (width === 375)
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
      ).toBeLessThanOrEqual(0);
    if (shots) await page.screenshot({ path: join(shots, `${name}-${width}-${theme}.png`), fullPage: true });
  }
}

/** Corrects a word in the open transcript: its Edit button (shown on hover), the new text, Enter. */
export async function correctWord(page: Page, word: { _id: string; text: string }, text: string): Promise<void> {
  await page.locator(`[data-word-id="${word._id}"]`).hover();
  await page.getByRole('button', { name: `Edit word ${word.text}` }).click();
  const input = page.getByTestId('word-input');
  await input.fill(text);
  await input.press('Enter');
}
