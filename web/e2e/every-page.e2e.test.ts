// Every page of the menu, in every role, on a phone (375 px) at either loopback address: opened
// the way a person does (the drawer, then the entry), each must render without the crash notice,
// without an error no part of the page caught, and without scrolling sideways. Waits for
// conditions, never for time.
import { describe, expect, it, jest } from '@jest/globals';
import type { Page, Request } from 'playwright-core';
import { browserSuite, DEMO_ACCOUNTS, originAt, signedInState, waitFor, type DemoRole } from './harness';

jest.setTimeout(300_000);

const suite = browserSuite();

/** A menu entry: its link, and the group button that shows it when it is in a group. */
interface Entry {
  key: string;
  path: string;
  group: string | null;
}

async function menuEntries(page: Page): Promise<Entry[]> {
  await page.getByTestId('sidebar').waitFor({ state: 'attached' });
  return page.$$eval('[data-testid="sidebar"] a[data-testid^="menu-"]', (links) =>
    links.map((link) => ({
      key: link.getAttribute('data-testid') ?? '',
      path: new URL((link as HTMLAnchorElement).href).pathname,
      group:
        link
          .closest('li')
          ?.parentElement?.closest('li')
          ?.querySelector(':scope > button')
          ?.getAttribute('data-testid') ?? null,
    })),
  );
}

/**
 * Resolves once the page asks for nothing more (calls, lazy chunks) and has drawn what came back:
 * a page that crashes on its data does so by then.
 */
function settled(page: Page): (what: string) => Promise<void> {
  const pending = new Set<Request>();
  const tracked = new Set(['fetch', 'xhr', 'script']);
  page.on('request', (request) => {
    if (tracked.has(request.resourceType())) pending.add(request);
  });
  page.on('requestfinished', (request) => pending.delete(request));
  page.on('requestfailed', (request) => pending.delete(request));
  return async (what) => {
    await waitFor(async () => pending.size === 0, `${what} to ask for nothing more`);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  };
}

describe.each(Object.keys(DEMO_ACCOUNTS) as DemoRole[])('%s on a phone', (role) => {
  it.each(['127.0.0.1', 'localhost'])('opens every page of the menu at %s', async (host) => {
    const origin = originAt(suite.server, host);
    const page = await suite.open({
      width: 375,
      height: 812,
      // Both themes are seen: dark at one address, light at the other.
      theme: host === 'localhost' ? 'light' : 'dark',
      storageState: await signedInState(suite.browser, origin, role),
    });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
    const quiet = settled(page);
    await page.goto(`${origin}/`);
    await page.getByTestId('user-menu').waitFor();
    const entries = await menuEntries(page);
    expect(entries.length).toBeGreaterThan(3);
    const crashed: string[] = [];
    const sideways: string[] = [];
    for (const entry of entries) {
      await page.getByTestId('sidebar-toggle').click();
      await page.getByTestId('drawer-backdrop').waitFor();
      if (entry.group) {
        const group = page.getByTestId(entry.group);
        if ((await group.getAttribute('aria-expanded')) !== 'true') await group.click();
      }
      await page.getByTestId(entry.key).click();
      await page.waitForURL((url) => url.pathname === entry.path);
      await page.getByTestId('drawer-backdrop').waitFor({ state: 'detached' });
      await quiet(entry.path);
      if ((await page.getByTestId('crash-notice').count()) > 0)
        crashed.push(`${entry.path}: ${await page.getByTestId('crash-notice').textContent()}`);
      // Wide tables scroll inside their own frame; the page itself never does.
      if (await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth))
        sideways.push(entry.path);
    }
    expect(crashed).toEqual([]);
    expect(sideways).toEqual([]);
    expect(errors).toEqual([]);
  });
});
