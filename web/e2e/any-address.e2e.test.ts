// The console must never go blank, whatever address, theme or width it is opened at: one
// all-in-one server reached as 127.0.0.1 and as localhost, and for each address × theme × width
// the checks that once failed at one of them (a company's address link threw at an IP address).
// Each role signs in once per address (cookies belong to an address); every check after the first
// page load navigates inside the app, as a click would. Waits for conditions, never for time.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { Page } from 'playwright-core';
import {
  apiSession,
  browserSuite,
  originAt,
  signedInState,
  uploadTranscribed,
  type DemoRole,
  type StorageState,
  type Theme,
} from './harness';

jest.setTimeout(120_000);

const HOSTS = ['127.0.0.1', 'localhost'] as const;
type Host = (typeof HOSTS)[number];
const MATRIX = HOSTS.flatMap((host) =>
  (['light', 'dark'] as const).flatMap((theme) => ([1280, 375] as const).map((width) => ({ host, theme, width }))),
);

const SHOTS = process.env.SCREENSHOT_DIR;
let workDir = '';
const suite = browserSuite({
  tearDown: async () => {
    if (workDir) await rm(workDir, { recursive: true, force: true });
  },
});

/** A transcribed recording of the demo USER, for the analysis page. */
let fileId = '';

async function transcribedRecording(): Promise<string> {
  workDir = await mkdtemp(join(tmpdir(), 'earshot-any-address-e2e-'));
  const wav = join(workDir, 'call.wav');
  execFileSync('espeak-ng', ['-s', '140', '-w', wav, 'Hello, I would like to ask about my invoice.']);
  return uploadTranscribed(await apiSession(suite.server.origin, 'USER'), wav);
}

const sessions = new Map<string, Promise<StorageState>>();

/** Each role signs in once per address; every profile of that role at that address starts from it. */
function session(host: Host, role: DemoRole): Promise<StorageState> {
  const key = `${role}@${host}`;
  if (!sessions.has(key)) sessions.set(key, signedInState(suite.browser, originAt(suite.server, host), role));
  return sessions.get(key)!;
}

beforeAll(async () => {
  [fileId] = await Promise.all([
    transcribedRecording(),
    ...HOSTS.flatMap((host) => (['HOST_ADMIN', 'USER'] as const).map((role) => session(host, role))),
  ]);
}, 600_000);

interface Watched {
  page: Page;
  origin: string;
  /** Errors no part of the page caught (`pageerror`). */
  errors: string[];
}

async function open(host: Host, role: DemoRole, theme: Theme, width: number, path: string): Promise<Watched> {
  const page = await suite.open({ width, height: 860, theme, storageState: await session(host, role) });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const origin = originAt(suite.server, host);
  await page.goto(`${origin}${path}`);
  await page.getByTestId('user-menu').waitFor();
  return { page, origin, errors };
}

/** Goes to `path` inside the loaded app (the router follows history, as after a link's click): no reload. */
async function visit(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

/** With SCREENSHOT_DIR, the phone view at one address in either theme: `any-address-<name>-375-<theme>.png`. */
async function shoot({ page, origin }: Watched, name: string, width: number, theme: Theme): Promise<void> {
  if (SHOTS && width === 375 && origin === originAt(suite.server, '127.0.0.1'))
    await page.screenshot({ path: join(SHOTS, `any-address-${name}-375-${theme}.png`) });
}

async function noCrash({ page, errors }: Watched): Promise<void> {
  expect(await page.getByTestId('crash-notice').count()).toBe(0);
  expect(errors).toEqual([]);
}

describe.each(MATRIX)('at $host, $theme, $width px', ({ host, theme, width }) => {
  it('a platform administrator creates and edits a company; its policies say what they need', async () => {
    const watched = await open(host, 'HOST_ADMIN', theme, width, '/companies');
    const { page } = watched;
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(theme === 'dark');
    await page.getByTestId('company-add').click();
    const form = page.getByTestId('company-form');
    const domain = `m${width}${theme}${host.replace(/\W/g, '')}${process.pid}`;
    await form.getByLabel('Name').fill(`Matrix ${domain}`);
    await form.getByLabel('Code').fill(domain);
    await form.getByLabel('Domain').fill(domain);
    await form.getByRole('button', { name: 'Create company' }).click();
    await page.getByTestId('api-key-value').waitFor();
    // An IP address has no subdomains: the company's own address is on localhost at either.
    expect(await page.getByTestId('company-site-link').getAttribute('href')).toBe(
      `http://${domain}.localhost:${suite.server.port}/`,
    );
    await form.getByLabel('Name').fill(`Matrix ${domain} renamed`);
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('toast-success').filter({ hasText: 'Company saved' }).waitFor();

    // This server has no master key: the switch is off and says why instead of offering encryption.
    const policies = page.getByTestId('policies-form');
    await policies.getByText('Unavailable: this server has no master key', { exact: false }).waitFor();
    expect(await policies.getByTestId('policies-encryption').isDisabled()).toBe(true);
    // A retention the contract refuses is explained next to its field, in words, before anything is sent.
    const audit = policies.getByTestId('policies-auditDays');
    await audit.fill('100');
    await policies.getByRole('button', { name: 'Save policies' }).click();
    await policies
      .getByTestId('field-error')
      .filter({ hasText: 'Enter whole days from 365 to 36500, or leave it blank to keep forever' })
      .waitFor();
    expect(await audit.getAttribute('aria-invalid')).toBe('true');
    await shoot(watched, 'company-policies', width, theme);
    await noCrash(watched);
  });

  it('a USER meets not found, a forbidden link, analysis without a model and a failing page, never a blank one', async () => {
    const watched = await open(host, 'USER', theme, width, `/transcripts/${randomUUID()}`);
    const { page } = watched;
    await page.getByTestId('viewer-error').filter({ hasText: 'This transcript was not found' }).waitFor();
    await shoot(watched, 'transcript-not-found', width, theme);

    await visit(page, '/companies');
    await page.waitForURL((url) => url.pathname === '/chat');
    await page
      .getByTestId('forbidden-notice')
      .filter({ hasText: '“/companies” is only for Platform administrator' })
      .waitFor();
    await shoot(watched, 'forbidden-link', width, theme);

    // The test platform has no chat model: the USER is told before Run, and Run stays disabled.
    await visit(page, `/transcripts/${fileId}/analysis`);
    await page
      .getByTestId('run-no-model')
      .filter({ hasText: 'Analysis needs an AI model — ask your administrator.' })
      .waitFor();
    expect(await page.getByTestId('run-start').isDisabled()).toBe(true);
    await shoot(watched, 'analysis-no-model', width, theme);

    // An answer the page does not expect makes it throw while rendering: the boundary says so,
    // and Try again renders it once the server answers as expected.
    const tagsCall = (url: URL) => url.pathname === '/api/tags';
    await page.route(tagsCall, (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: '[{"name":{"unexpected":true},"count":1}]' }),
    );
    await visit(page, '/tags');
    const notice = page.getByTestId('crash-notice');
    await notice.waitFor();
    await shoot(watched, 'crash-notice', width, theme);
    await page.unroute(tagsCall);
    await notice.getByRole('button', { name: 'Try again' }).click();
    await notice.waitFor({ state: 'detached' });
    await page.getByRole('table').waitFor();
    await noCrash(watched);
  });
});
