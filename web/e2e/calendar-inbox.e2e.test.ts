// The calendar and the inbox in real Chromium against the real all-in-one server, as each role:
// month, week and day views with a recording and tasks made through the API, a task dragged to
// another day (the tasks service then holds the new due date), the inbox with an assignment's
// notification carrying its e-mail as one item (the platform administrator, who belongs to no
// company and gets no task, has the e-mails of turning two-step verification on and off), a
// message opened and read, and the inbox's and task list's dates in each language.
// Waits for conditions, never for time. SCREENSHOT_DIR keeps the pages light, dark and at 375 px.
import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { generateSync } from 'otplib';
import type { Page } from 'playwright-core';
import { apiSession, browserSuite, seriousViolations, signIn, waitFor, type ApiClient, type DemoRole } from './harness';

jest.setTimeout(300_000);

// The server serves its own copy of the built console: another suite run from the same tree may
// rebuild web/dist meanwhile, and the pages' chunks would then vanish under this one.
let webCopy = '';
const suite = browserSuite({
  env: async () => {
    webCopy = await mkdtemp(join(tmpdir(), 'earshot-calendar-web-'));
    await cp(join(dirname(fileURLToPath(import.meta.url)), '..', 'dist'), webCopy, { recursive: true });
    return { WEB_DIST: webCopy, SKIP_WEB_BUILD: 'true' };
  },
  tearDown: async () => {
    if (webCopy) await rm(webCopy, { recursive: true, force: true });
  },
});
const SHOTS = process.env.SCREENSHOT_DIR;
const ROLES: DemoRole[] = ['HOST_ADMIN', 'ADMIN', 'USER', 'CALLER'];

/** A day key on this machine's clock, which Chromium shares: the calendar places days the same way. */
function dayKey(date: Date): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}
const now = new Date();
const TODAY = dayKey(now);
// The day the drag goes to: in the same Monday-to-Sunday week as today, so the week view shows both.
const TARGET = dayKey(new Date(now.getFullYear(), now.getMonth(), now.getDate() + (now.getDay() === 0 ? -1 : 1)));

const RECORDING = 'calendar-call.wav';
/** The task each role drags: assigned to them (the platform administrator may move any task). */
const TASK_TITLE: Record<DemoRole, string> = {
  HOST_ADMIN: 'Check the platform usage',
  ADMIN: 'Review the week’s calls',
  USER: 'Call Acme back about the invoice',
  CALLER: 'Send the offer to Globex',
};
/** The message each role opens from the inbox. */
const MESSAGE_TITLE: Record<DemoRole, RegExp> = {
  HOST_ADMIN: /two-step/i,
  ADMIN: /New task: Prepare the quarterly report/,
  USER: /New task: Call Acme back about the invoice/,
  CALLER: /New task: Send the offer to Globex/,
};
const taskIds = {} as Record<DemoRole, string>;
let workDir = '';
let admin: ApiClient;

async function idOf(api: ApiClient): Promise<string> {
  return ((await (await api('/users/profile')).json()) as { _id: string })._id;
}

async function createTask(
  api: ApiClient,
  body: { title: string; assigneeId: string | null; dueDate: string },
): Promise<string> {
  const answer = await api('/tasks', { json: body });
  if (answer.status !== 201)
    throw new Error(`Creating the task ${body.title} failed: ${answer.status} ${await answer.text()}`);
  return ((await answer.json()) as { _id: string })._id;
}

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'earshot-calendar-e2e-'));
  const origin = suite.server.origin;
  const sessions = Object.fromEntries(
    await Promise.all(ROLES.map(async (role) => [role, await apiSession(origin, role)] as const)),
  ) as Record<DemoRole, ApiClient>;
  admin = sessions.ADMIN;
  const ids = Object.fromEntries(
    await Promise.all(ROLES.map(async (role) => [role, await idOf(sessions[role])] as const)),
  ) as Record<DemoRole, string>;

  // A recording of the company, uploaded today by the USER.
  const wav = join(workDir, RECORDING);
  execFileSync('espeak-ng', ['-s', '150', '-w', wav, 'Hello, this is a call about the invoice.']);
  const form = new FormData();
  form.append('file', new Blob([await readFile(wav)], { type: 'audio/wav' }), RECORDING);
  const upload = await sessions.USER('/files/upload', { form });
  if (upload.status !== 201) throw new Error(`Uploading the recording failed: ${upload.status} ${await upload.text()}`);

  // Tasks due today: the ADMIN assigns the USER's and the CALLER's (each is notified and mailed),
  // the USER assigns the ADMIN's, and one with nobody assigned waits for the platform administrator.
  taskIds.USER = await createTask(admin, { title: TASK_TITLE.USER, assigneeId: ids.USER, dueDate: TODAY });
  taskIds.CALLER = await createTask(admin, { title: TASK_TITLE.CALLER, assigneeId: ids.CALLER, dueDate: TODAY });
  taskIds.ADMIN = await createTask(admin, { title: TASK_TITLE.ADMIN, assigneeId: ids.ADMIN, dueDate: TODAY });
  taskIds.HOST_ADMIN = await createTask(admin, { title: TASK_TITLE.HOST_ADMIN, assigneeId: null, dueDate: TODAY });
  await createTask(sessions.USER, { title: 'Prepare the quarterly report', assigneeId: ids.ADMIN, dueDate: TODAY });
  // Nobody moves this one: today keeps more than a month cell shows.
  await createTask(admin, { title: 'Book the team meeting room', assigneeId: null, dueDate: TODAY });

  // The platform administrator's messages: turning two-step verification on and off mails them.
  const host = sessions.HOST_ADMIN;
  const { secret } = (await (await host('/users/two-step/setup', { method: 'POST' })).json()) as { secret: string };
  const enabled = await host('/users/two-step/enable', { json: { code: generateSync({ strategy: 'totp', secret }) } });
  if (enabled.status !== 200) throw new Error(`Turning two-step on failed: ${enabled.status} ${await enabled.text()}`);
  const { recoveryCodes } = (await enabled.json()) as { recoveryCodes: string[] };
  const disabled = await host('/users/two-step/disable', { json: { code: recoveryCodes[0] } });
  if (disabled.status !== 200)
    throw new Error(`Turning two-step off failed: ${disabled.status} ${await disabled.text()}`);

  // Notifications and mail follow from events: wait until each inbox holds its message.
  for (const role of ROLES) {
    await waitFor(async () => {
      const page = (await (await sessions[role]('/inbox')).json()) as { items: Array<{ title: string }> };
      return page.items.some((item) => MESSAGE_TITLE[role].test(item.title));
    }, `the ${role}'s inbox message`);
  }
}, 600_000);

afterAll(async () => {
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

async function shoot(page: Page, name: string): Promise<void> {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

const day = (page: Page, key: string) => page.locator(`[data-testid="calendar-day"][data-day="${key}"]`);

/** Presses on the task, moves past dnd-kit's 6 px threshold, then over the other day, and lets go. */
async function drag(page: Page, title: string, to: string): Promise<void> {
  const task = day(page, TODAY).getByTestId('calendar-task').filter({ hasText: title });
  const from = (await task.boundingBox())!;
  const target = (await day(page, to).boundingBox())!;
  await page.mouse.move(from.x + 20, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + 32, from.y + from.height / 2, { steps: 3 });
  await page.mouse.move(target.x + target.width / 2, target.y + target.height / 2, { steps: 12 });
  await page.mouse.up();
}

describe('calendar and inbox in Chromium', () => {
  it.each(ROLES)('as %s: month, week and day; a task dragged to another day; the inbox and a message', async (role) => {
    const page = await suite.open();
    await signIn(page, suite.server.origin, role);

    // Month: today holds more than a cell shows; "+N more" says how many more.
    await page.goto(`${suite.server.origin}/calendar`);
    await page.getByTestId('calendar-month').waitFor();
    const shown = day(page, TODAY).locator('[data-testid="calendar-task"], [data-testid="calendar-recording"]');
    await shown.first().waitFor();
    expect(await shown.count()).toBe(3);
    expect(await day(page, TODAY).getByTestId('calendar-more').textContent()).toMatch(/^\+\d+ more$/);
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, `calendar-month-${role.toLowerCase()}`);

    // Week: drag the role's task onto the next day (the day before on a Sunday).
    await page.getByTestId('calendar-view-week').click();
    await page.getByTestId('calendar-week').waitFor();
    await day(page, TODAY).getByTestId('calendar-task').filter({ hasText: TASK_TITLE[role] }).waitFor();
    // The platform administrator sees every company's calendar; the others their company's.
    await day(page, TODAY).getByTestId('calendar-recording').filter({ hasText: RECORDING }).first().waitFor();
    const movable = (title: string) =>
      page.getByTestId('calendar-task').filter({ hasText: title }).getAttribute('data-movable');
    if (role === 'USER') expect(await movable(TASK_TITLE.CALLER)).toBe('false');
    if (role === 'ADMIN' || role === 'HOST_ADMIN') expect(await movable(TASK_TITLE.CALLER)).toBe('true');
    expect(await movable(TASK_TITLE[role])).toBe('true');
    const saved = page.waitForResponse(
      (response) => response.url().endsWith(`/api/tasks/${taskIds[role]}`) && response.request().method() === 'PUT',
    );
    await drag(page, TASK_TITLE[role], TARGET);
    expect([(await saved).status(), (await saved).request().postDataJSON()]).toEqual([200, { dueDate: TARGET }]);
    await day(page, TARGET).getByTestId('calendar-task').filter({ hasText: TASK_TITLE[role] }).waitFor();
    await page.getByTestId('toast-success').waitFor();
    const stored = (await (await admin(`/tasks/${taskIds[role]}`)).json()) as { dueDate: string };
    expect(stored.dueDate).toBe(TARGET);
    await shoot(page, `calendar-week-${role.toLowerCase()}`);

    // Day: the target day holds the moved task; the address keeps the place.
    await day(page, TARGET).getByRole('button', { name: /\d/ }).first().click();
    await page.getByTestId('calendar-day-view').waitFor();
    expect(new URL(page.url()).searchParams.get('view')).toBe('day');
    expect(new URL(page.url()).searchParams.get('date')).toBe(TARGET);
    await page.getByTestId('calendar-task').filter({ hasText: TASK_TITLE[role] }).waitFor();
    await shoot(page, `calendar-day-${role.toLowerCase()}`);

    // Inbox: the message unread, opened (and so read), then read in the list.
    await page.goto(`${suite.server.origin}/inbox`);
    const row = page.getByTestId('inbox-item').filter({ hasText: MESSAGE_TITLE[role] }).first();
    await row.waitFor();
    expect(await row.getAttribute('data-read')).toBe('false');
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, `inbox-${role.toLowerCase()}`);
    // One item per event: an assignment's notice carries its e-mail instead of a second row.
    if (role !== 'HOST_ADMIN')
      expect(await page.getByTestId('inbox-item').filter({ hasText: MESSAGE_TITLE[role] }).count()).toBe(1);
    await row.getByTestId('inbox-item-link').click();
    await page.getByTestId('inbox-message').waitFor();
    expect(new URL(page.url()).pathname).toBe('/inbox-details');
    expect(await page.getByTestId('inbox-message-title').textContent()).toMatch(MESSAGE_TITLE[role]);
    if (role !== 'HOST_ADMIN')
      expect(await page.getByTestId('inbox-message-email').textContent()).toContain('An e-mail was sent too.');
    await shoot(page, `inbox-details-${role.toLowerCase()}`);
    await page.getByTestId('inbox-back').click();
    await page
      .getByTestId('inbox-item')
      .filter({ hasText: MESSAGE_TITLE[role] })
      .first()
      .and(page.locator('[data-read="true"]'))
      .waitFor();
  });

  it('the bell shows the unread count and the latest messages; a message opens its task', async () => {
    // The CALLER read their one event above (its notice and, with it, its e-mail): unread again.
    const caller = await apiSession(suite.server.origin, 'CALLER');
    const listed = (await (await caller('/inbox')).json()) as { items: Array<{ _id: string; title: string }> };
    const assignment = listed.items.find((item) => MESSAGE_TITLE.CALLER.test(item.title))!;
    const marked = await caller(`/inbox/${assignment._id}`, { method: 'PUT', json: { read: false } });
    expect(marked.status).toBe(200);
    const page = await suite.open();
    await signIn(page, suite.server.origin, 'CALLER');
    const count = page.getByTestId('notifications-unread');
    await count.waitFor();
    const unread = (await (await (await apiSession(suite.server.origin, 'CALLER'))('/inbox?limit=5')).json()) as {
      unread: number;
      items: Array<{ title: string }>;
    };
    expect(await count.textContent()).toBe(String(unread.unread));
    await page.getByTestId('notifications-bell').click();
    const entries = page.getByRole('menu').getByTestId('notification');
    expect(await entries.count()).toBe(Math.min(5, unread.items.length));
    await shoot(page, 'bell-open');
    await page.getByRole('menu').getByTestId('notifications-see-all').click();
    await page.waitForURL((url) => url.pathname === '/inbox');

    // The assignment's details link to the task.
    await page
      .getByTestId('inbox-item')
      .filter({ hasText: MESSAGE_TITLE.CALLER })
      .first()
      .getByTestId('inbox-item-link')
      .click();
    await page.getByTestId('inbox-message-link').click();
    await page.waitForURL((url) => url.pathname === '/task-list' && url.searchParams.get('task') === taskIds.CALLER);
  });

  it('dates on the inbox and the task list read as Intl writes them in each language, never as ISO', async () => {
    const page = await suite.open();
    await signIn(page, suite.server.origin, 'USER');
    const intl = (value: string, language: string, options: Intl.DateTimeFormatOptions) =>
      page.evaluate(([iso, lang, opts]) => new Intl.DateTimeFormat(lang, opts).format(new Date(iso)), [
        value,
        language,
        options,
      ] as const);
    for (const language of ['fr', 'et', 'lv', 'en']) {
      await page.getByTestId('language-switcher').click();
      await page.getByTestId(`language-${language}`).click();
      await page.waitForFunction((code) => document.documentElement.lang === code, language);

      await page.goto(`${suite.server.origin}/inbox`);
      const row = page.getByTestId('inbox-item').filter({ hasText: MESSAGE_TITLE.USER }).first();
      await row.waitFor();
      const time = row.locator('time');
      const at = (await time.getAttribute('datetime'))!;
      expect(await time.textContent()).toBe(await intl(at, language, { dateStyle: 'medium', timeStyle: 'short' }));
      expect(await row.textContent()).not.toMatch(/\d{4}-\d{2}-\d{2}/);

      await page.goto(`${suite.server.origin}/task-list`);
      const due = page.getByTestId('task-due');
      await due.first().waitFor();
      const days = await Promise.all(
        [TODAY, TARGET].map((key) =>
          intl(`${key}T00:00:00Z`, language, { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' }),
        ),
      );
      for (const text of await due.allTextContents()) expect(days.some((shown) => text.startsWith(shown))).toBe(true);
    }
  });

  it('a recording opens its transcript; a task its place in the list', async () => {
    const page = await suite.open();
    await signIn(page, suite.server.origin, 'USER');
    await page.goto(`${suite.server.origin}/calendar?view=week&date=${TODAY}`);
    await day(page, TODAY).getByTestId('calendar-recording').filter({ hasText: RECORDING }).first().click();
    await page.waitForURL((url) => /^\/transcripts\/[0-9a-f-]{36}$/.test(url.pathname));
    await page.goBack();
    await page.getByTestId('calendar-week').waitFor();
    await page.getByTestId('calendar-task').filter({ hasText: TASK_TITLE.CALLER }).getByRole('link').click();
    await page.waitForURL((url) => url.pathname === '/task-list' && url.searchParams.get('task') === taskIds.CALLER);
  });

  it('the iCalendar feed: a secret address that answers text/calendar', async () => {
    const page = await suite.open();
    await signIn(page, suite.server.origin, 'USER');
    await page.goto(`${suite.server.origin}/calendar`);
    await page.getByTestId('calendar-feed-open').click();
    const dialog = page.getByTestId('calendar-feed-dialog');
    await dialog.getByTestId('calendar-feed-create').click();
    const url = await dialog.getByTestId('calendar-feed-url').inputValue();
    expect(url).toMatch(/\/api\/calendar\/feed\/[A-Za-z0-9_-]{32,64}\.ics$/);
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'calendar-feed');
    // The address names the console's public host; the test server's port was picked at start.
    const feed = await fetch(`${suite.server.origin}${new URL(url).pathname}`);
    expect(feed.headers.get('content-type')).toMatch(/^text\/calendar/);
    expect(await feed.text()).toContain('BEGIN:VCALENDAR');
  });

  it.each([
    ['light', 1280],
    ['dark', 1280],
    ['light', 375],
    ['dark', 375],
  ] as const)('looks right %s at %i px', async (theme, width) => {
    const page = await suite.open({ width });
    await signIn(page, suite.server.origin, 'ADMIN');
    await page.evaluate((value) => localStorage.setItem('theme', value), theme);
    const name = `${theme}-${width}`;
    for (const view of ['month', 'week', 'day'] as const) {
      await page.goto(`${suite.server.origin}/calendar?view=${view}&date=${TODAY}`);
      const shown =
        view === 'month'
          ? width < 768
            ? 'calendar-agenda'
            : 'calendar-month'
          : view === 'week'
            ? 'calendar-week'
            : 'calendar-day-view';
      await page.getByTestId(shown).waitFor();
      await page.getByTestId('calendar-task').first().waitFor();
      await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(width);
      expect(await seriousViolations(page)).toEqual([]);
      await shoot(page, `calendar-${view}-${name}`);
    }
    await page.goto(`${suite.server.origin}/inbox`);
    await page.getByTestId('inbox-item').first().waitFor();
    await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(width);
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, `inbox-${name}`);
    await page.getByTestId('inbox-item-link').first().click();
    await page.getByTestId('inbox-message').waitFor();
    await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(width);
    await shoot(page, `inbox-details-${name}`);
  });
});
