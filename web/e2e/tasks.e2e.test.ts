// Tasks in real Chromium against the real all-in-one server: a task made in the dialog,
// one dragged across the board with the mouse and one carried with the keyboard, the list's filters,
// a transcript's selected words made into a task, an "Action items" run (the fake provider answering
// {"items": [...]}) turned into tasks, and each role's list and board (rights, no console error,
// axe). Waits for conditions, never for time. SCREENSHOT_DIR keeps light, dark and 375 px pictures.
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { TaskDto, TaskPage } from '@earshot/contracts';
import type { Page } from 'playwright-core';
import { connectFakeChatModel, fakeProviderSuite } from './fake-provider';
import {
  apiSession,
  priceChatModelsFree,
  seriousViolations,
  signIn,
  waitFor,
  type ApiClient,
  type DemoRole,
} from './harness';

jest.setTimeout(300_000);

const SHOTS = process.env.SCREENSHOT_DIR;
const ROLES: DemoRole[] = ['HOST_ADMIN', 'ADMIN', 'USER', 'CALLER'];
const today = new Date().toISOString().slice(0, 10);
const dayAfter = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

let workDir = '';
let fileId = '';
const ids = {} as Record<DemoRole, string>;
const sessions = {} as Record<DemoRole, ApiClient>;

const suite = fakeProviderSuite(async () => {
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

async function createTask(api: ApiClient, body: Record<string, unknown>): Promise<TaskDto> {
  const answer = await api('/tasks', { json: body });
  if (answer.status !== 201) throw new Error(`Creating the task failed: ${answer.status} ${await answer.text()}`);
  return (await answer.json()) as TaskDto;
}

async function taskById(id: string): Promise<TaskDto> {
  return (await (await sessions.ADMIN(`/tasks/${id}`)).json()) as TaskDto;
}

async function tasksTitled(title: string): Promise<TaskDto[]> {
  const page = (await (await sessions.ADMIN('/tasks?limit=100&sort=createdAt&order=desc')).json()) as TaskPage;
  return page.items.filter((task) => task.title === title);
}

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'earshot-tasks-e2e-'));
  const origin = suite.server.origin;
  for (const role of ROLES) {
    sessions[role] = await apiSession(origin, role);
    ids[role] = ((await (await sessions[role]('/users/profile')).json()) as { _id: string })._id;
  }
  const wav = join(workDir, 'tasks-call.wav');
  execFileSync('espeak-ng', [
    '-s',
    '140',
    '-w',
    wav,
    'Hello, thank you for calling. Please send me the refund form today. Of course, I will check the last invoice too. Goodbye.',
  ]);
  const form = new FormData();
  form.append('file', new Blob([await readFile(wav)], { type: 'audio/wav' }), 'tasks-call.wav');
  const upload = await sessions.USER('/files/upload', { form });
  expect(upload.status).toBe(201);
  fileId = ((await upload.json()) as { _id: string })._id;
  await waitFor(async () => {
    const answer = (await (await sessions.USER(`/transcripts/file/${fileId}`)).json()) as { status: string };
    if (answer.status === 'failed') throw new Error('The recording failed to transcribe');
    return answer.status === 'completed';
  }, 'the recording to be transcribed');
}, 600_000);

async function signedIn(role: DemoRole, width = 1280): Promise<{ page: Page; errors: string[] }> {
  const page = await suite.open({ width, height: width < 768 ? 812 : 860 });
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await signIn(page, suite.server.origin, role);
  return { page, errors };
}

async function shoot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  // A full-page picture of a scrolled page draws the fixed header and sidebar where they are now.
  await page.evaluate(() => window.scrollTo(0, 0));
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((dark) => document.documentElement.classList.toggle('dark', dark), theme === 'dark');
    await page.screenshot({ path: join(SHOTS, `${name}-${theme}.png`), fullPage: true });
  }
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
}

const card = (page: Page, id: string) => page.locator(`[data-testid="kanban-card"][data-task-id="${id}"]`);
const column = (page: Page, status: string) => page.locator(`[data-testid="kanban-column"][data-status="${status}"]`);

/** Presses on the card, moves past dnd-kit's 6 px threshold, then over the column, and lets go. */
async function drag(page: Page, id: string, to: string): Promise<void> {
  const from = (await card(page, id).locator('p').first().boundingBox())!;
  const target = (await column(page, to).boundingBox())!;
  await page.mouse.move(from.x + 10, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + 22, from.y + from.height / 2, { steps: 3 });
  await page.mouse.move(target.x + target.width / 2, target.y + 60, { steps: 12 });
  await page.mouse.up();
}

/**
 * dnd-kit's keyboard drag: Space picks the card up (its grip turns pressed), the arrow key carries it
 * to the next column (announced as over it), Space drops it there.
 */
async function carry(
  page: Page,
  id: string,
  title: string,
  key: 'ArrowRight' | 'ArrowDown',
  to: string,
): Promise<void> {
  const grip = card(page, id).getByTestId('kanban-grip');
  await grip.focus();
  await page.keyboard.press('Space');
  await card(page, id).locator('[data-testid="kanban-grip"][aria-pressed="true"]').waitFor();
  await page.keyboard.press(key);
  await page.getByText(`“${title}” is over ${to}.`, { exact: true }).waitFor({ state: 'attached' });
  await page.keyboard.press('Space');
}

describe('tasks in Chromium', () => {
  it('an ADMIN makes a task in the dialog, then finds it in the list and opens it from ?task=', async () => {
    const { page, errors } = await signedIn('ADMIN');
    await page.goto(`${suite.server.origin}/task-list`);
    await page.getByRole('heading', { name: 'Task list' }).waitFor();
    // One date for both the form and the check, so a run that crosses midnight still agrees with itself.
    const due = dayAfter(3);
    await page.getByTestId('task-new').click();
    const dialog = page.getByTestId('task-dialog');
    await dialog.getByLabel('Title').fill('Prepare the onboarding call');
    await dialog.getByLabel('Description').fill('Agenda and the customer’s questions');
    await dialog.getByLabel('Assignee').selectOption({ label: 'Uma User' });
    await dialog.getByLabel('Due date').fill(due);
    await dialog.getByRole('button', { name: 'Create task' }).click();
    await page.getByTestId('toast-success').filter({ hasText: 'Task created' }).waitFor();
    const [made] = await tasksTitled('Prepare the onboarding call');
    expect(made).toMatchObject({
      description: 'Agenda and the customer’s questions',
      assigneeId: ids.USER,
      dueDate: due,
      status: 'todo',
      createdBy: ids.ADMIN,
    });
    const row = page.getByTestId('data-table-row').filter({ hasText: 'Prepare the onboarding call' });
    await row.getByText('Uma User').waitFor();

    await page.goto(`${suite.server.origin}/task-list?task=${made!._id}`);
    await page.getByTestId('task-form').waitFor();
    expect(await page.getByTestId('task-dialog').getByLabel('Title').inputValue()).toBe('Prepare the onboarding call');
    await page.getByTestId('task-dialog').getByLabel('Status').selectOption('in_progress');
    await page.getByTestId('task-dialog').getByRole('button', { name: 'Save' }).click();
    await waitFor(async () => (await taskById(made!._id)).status === 'in_progress', 'the status saved');
    // The dialog closes after the saved answer arrives, which can be a moment after the row changed in the database.
    await page.waitForURL((url) => url.searchParams.get('task') === null);
    expect(errors).toEqual([]);
  });

  it('drags a card across the board with the mouse and carries one with the keyboard; both stay after a reload', async () => {
    const dragged = await createTask(sessions.ADMIN, { title: 'Drag me to in progress', assigneeId: ids.ADMIN });
    const carried = await createTask(sessions.ADMIN, {
      title: 'Carry me with the keyboard',
      assigneeId: ids.ADMIN,
      status: 'in_progress',
    });
    const { page, errors } = await signedIn('ADMIN');
    await page.goto(`${suite.server.origin}/task-kanban`);
    await card(page, dragged._id).waitFor();
    expect(
      await card(page, dragged._id).evaluate((element) =>
        element.closest('[data-testid="kanban-column"]')?.getAttribute('data-status'),
      ),
    ).toBe('todo');

    await drag(page, dragged._id, 'in_progress');
    await column(page, 'in_progress').locator(`[data-task-id="${dragged._id}"]`).waitFor();
    await waitFor(
      async () => (await taskById(dragged._id)).status === 'in_progress',
      'the dragged task saved as in progress',
    );

    // Keyboard: Space picks the card up, → carries it to the next column, Space drops it there.
    await carry(page, carried._id, 'Carry me with the keyboard', 'ArrowRight', 'Done');
    await column(page, 'done').locator(`[data-task-id="${carried._id}"]`).waitFor();
    await waitFor(async () => (await taskById(carried._id)).status === 'done', 'the carried task saved as done');
    await page
      .getByTestId('kanban-announcement')
      .filter({ hasText: '“Carry me with the keyboard” moved to Done.' })
      .waitFor();

    // And with the card's menu, keyboard only: back to To do.
    await card(page, carried._id).getByRole('button', { name: 'Move “Carry me with the keyboard”' }).focus();
    await page.keyboard.press('ArrowDown');
    await waitFor(
      async () => (await page.evaluate(() => document.activeElement?.textContent)) === 'Move to To do',
      'the menu open on its first entry',
    );
    await page.keyboard.press('Enter');
    await column(page, 'todo').locator(`[data-task-id="${carried._id}"]`).waitFor();
    await waitFor(async () => (await taskById(carried._id)).status === 'todo', 'the menu move saved');

    await page.reload();
    await column(page, 'in_progress').locator(`[data-task-id="${dragged._id}"]`).waitFor();
    await column(page, 'todo').locator(`[data-task-id="${carried._id}"]`).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'tasks-kanban-1280');
    expect(errors).toEqual([]);
  });

  it('filters the list: due, status, mine and client, kept in the URL over a reload', async () => {
    const clients = (await (await sessions.ADMIN('/clients/dropdown')).json()) as Array<{ _id: string; name: string }>;
    const client =
      clients[0] ??
      ((await (await sessions.ADMIN('/clients', { json: { name: 'Filter Client Ltd' } })).json()) as {
        _id: string;
        name: string;
      });
    await createTask(sessions.ADMIN, { title: 'Filter overdue for Uma', assigneeId: ids.USER, dueDate: dayAfter(-2) });
    // The tasks service learns of clients from the tenant's events: the first try may come before it has.
    await waitFor(
      async () =>
        (
          await sessions.ADMIN('/tasks', {
            json: { title: 'Filter today for Ada', assigneeId: ids.ADMIN, dueDate: today, clientId: client._id },
          })
        ).status === 201,
      'the task for the client created',
    );
    await createTask(sessions.ADMIN, {
      title: 'Filter done yesterday',
      assigneeId: ids.USER,
      dueDate: dayAfter(-1),
      status: 'done',
    });
    const { page } = await signedIn('ADMIN');
    const filters = page.getByTestId('task-filters');
    const titles = async () =>
      (await page.getByTestId('task-open').allTextContents()).filter((title) => title.startsWith('Filter '));
    await page.goto(`${suite.server.origin}/task-list`);
    await page.getByTestId('data-table-row').filter({ hasText: 'Filter today for Ada' }).waitFor();

    await filters.getByLabel('Due', { exact: true }).selectOption('overdue');
    await waitFor(
      async () => JSON.stringify(await titles()) === JSON.stringify(['Filter overdue for Uma']),
      'only the open overdue task',
    );
    expect(new URL(page.url()).searchParams.get('due')).toBe('overdue');
    await page.reload();
    await page.getByTestId('data-table-row').filter({ hasText: 'Filter overdue for Uma' }).waitFor();
    expect(await filters.getByLabel('Due', { exact: true }).inputValue()).toBe('overdue');

    await filters.getByLabel('Due', { exact: true }).selectOption('');
    await filters.getByLabel('Status').selectOption('done');
    await waitFor(
      async () =>
        (await titles()).includes('Filter done yesterday') && !(await titles()).includes('Filter today for Ada'),
      'only done tasks',
    );
    await filters.getByLabel('Status').selectOption('');
    await filters.getByLabel('Only my tasks').check();
    await waitFor(
      async () =>
        (await titles()).includes('Filter today for Ada') && !(await titles()).includes('Filter overdue for Uma'),
      'only the ADMIN’s tasks',
    );
    await filters.getByLabel('Only my tasks').uncheck();
    await filters.getByLabel('Client').selectOption({ label: client.name });
    await waitFor(
      async () => JSON.stringify(await titles()) === JSON.stringify(['Filter today for Ada']),
      'only the client’s task',
    );
    await page.getByTestId('filter-clear').click();
    await page.getByLabel('Sort by').selectOption('title');
    await waitFor(async () => {
      const all = await titles();
      return all.length === 3 && JSON.stringify(all) === JSON.stringify([...all].sort((a, b) => a.localeCompare(b)));
    }, 'the three tasks by title');
    await shoot(page, 'tasks-list-1280');
  });

  it('a USER makes a task of selected words in the viewer, linked to their moment', async () => {
    const { page, errors } = await signedIn('USER');
    await page.goto(`${suite.server.origin}/transcripts/${fileId}`);
    const words = page.locator('[data-word-id]');
    await words.first().waitFor();
    const first = words.nth(1);
    const firstText = (await first.textContent())!.trim();
    const secondText = (await words.nth(2).textContent())!.trim();
    await first.click({ modifiers: ['Shift'] });
    await words.nth(2).click({ modifiers: ['Shift'] });
    await page.getByTestId('selection-bar').getByText('Words selected: 2').waitFor();
    await page.getByTestId('make-task').click();
    const dialog = page.getByTestId('task-dialog');
    await dialog.getByTestId('task-form').waitFor();
    expect(await dialog.getByLabel('Title').inputValue()).toBe(`${firstText} ${secondText}`);
    const href = (await dialog.getByTestId('task-link').getAttribute('href'))!;
    expect(href).toMatch(new RegExp(`^/transcripts/${fileId}\\?t=\\d+(\\.\\d)?$`));
    await dialog.getByLabel('Assignee').selectOption({ label: 'Me' });
    if (SHOTS) await page.screenshot({ path: join(SHOTS, 'tasks-dialog-from-selection.png') });
    await dialog.getByRole('button', { name: 'Create task' }).click();
    await page.getByTestId('selection-task-created').waitFor();
    const [made] = await tasksTitled(`${firstText} ${secondText}`);
    expect(made).toMatchObject({ assigneeId: ids.USER, createdBy: ids.USER, link: { fileId } });
    expect(made!.link!.seconds).toBeCloseTo(Number(new URL(href, suite.server.origin).searchParams.get('t')), 1);
    expect(errors).toEqual([]);
  });

  it('turns an "Action items" run into tasks: the ticked items only, the others kept for later', async () => {
    await connectFakeChatModel(sessions.HOST_ADMIN, suite.fake, { provider: 'Tasks fake' });
    await priceChatModelsFree(sessions.HOST_ADMIN);
    // One date for the model's answer and the check, so a run that crosses midnight still agrees with itself.
    const tomorrow = dayAfter(1);
    suite.fake.setReply({
      pieces: [
        JSON.stringify({
          items: [
            { title: 'Send the refund form', owner: 'Uma User', due: tomorrow },
            { title: 'Check the last invoice', owner: null, due: null },
            { title: 'Offer a discount next time', owner: 'Somebody Else', due: null },
          ],
        }),
      ],
    });
    const { page, errors } = await signedIn('USER');
    await page.goto(`${suite.server.origin}/transcripts/${fileId}/analysis`);
    await page.getByTestId('call-metrics').waitFor();
    await page.getByTestId('run-choice').selectOption({ label: 'Action items' });
    await page.getByTestId('run-start').click();
    const panel = page.getByTestId('action-items');
    await panel.waitFor({ timeout: 120_000 });
    expect(await panel.getByTestId('action-item').count()).toBe(3);
    await panel.getByLabel('Offer a discount next time').uncheck();
    if (SHOTS) await shoot(page, 'tasks-action-items-before');
    await panel.getByRole('button', { name: 'Create tasks' }).click();
    await panel.getByTestId('action-items-created').filter({ hasText: 'Tasks created: 2' }).waitFor();
    expect(await panel.locator('[data-testid="action-item"][data-done="true"]').count()).toBe(2);

    const [refund] = await tasksTitled('Send the refund form');
    expect(refund).toMatchObject({
      assigneeId: ids.USER,
      dueDate: tomorrow,
      link: { fileId, seconds: 0 },
      createdBy: ids.USER,
    });
    expect(await tasksTitled('Offer a discount next time')).toEqual([]);
    // After a reload the two are still shown done (and the third may still be kept).
    await page.reload();
    await page.getByTestId('action-items').locator('[data-testid="action-item"][data-done="true"]').nth(1).waitFor();
    expect(await page.getByTestId('action-items').getByTestId('action-item-check').count()).toBe(1);
    await shoot(page, 'tasks-action-items-after');
    await page.getByTestId('action-items').getByTestId('action-item-task').first().click();
    await page.getByTestId('task-dialog').waitFor();
    expect(new URL(page.url()).pathname).toBe('/task-list');
    expect(errors).toEqual([]);
  });

  it.each(ROLES)(
    'as %s: the list and the board, with edit rights as the role has them, at 1280 and 375 px',
    async (role) => {
      const someone = await createTask(sessions.ADMIN, {
        title: `Someone else’s task for ${role}`,
        assigneeId: ids.ADMIN,
        dueDate: today,
      });
      const { page, errors } = await signedIn(role);
      await page.goto(`${suite.server.origin}/task-list?task=${someone._id}`);
      await page.getByTestId('task-dialog').waitFor();
      // The assignee, the creator and the administrators change it; others read it.
      const editable = role === 'ADMIN' || role === 'HOST_ADMIN';
      await page.getByTestId(editable ? 'task-form' : 'task-details').waitFor();
      expect(await page.getByTestId('task-delete').count()).toBe(editable ? 1 : 0);
      // The platform administrator belongs to no company: they make no tasks.
      expect(await page.getByTestId('task-new').count()).toBe(role === 'HOST_ADMIN' ? 0 : 1);
      await page.keyboard.press('Escape');
      await page.getByTestId('task-dialog').waitFor({ state: 'hidden' });
      await page.getByTestId('data-table-row').first().waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await shoot(page, `tasks-list-${role.toLowerCase()}`);

      await page.goto(`${suite.server.origin}/task-kanban`);
      await card(page, someone._id).waitFor();
      expect(await card(page, someone._id).getByTestId('kanban-grip').count()).toBe(editable ? 1 : 0);
      expect(await seriousViolations(page)).toEqual([]);
      await shoot(page, `tasks-kanban-${role.toLowerCase()}`);

      await page.setViewportSize({ width: 375, height: 812 });
      await page.goto(`${suite.server.origin}/task-kanban`);
      await card(page, someone._id).waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await shoot(page, `tasks-kanban-375-${role.toLowerCase()}`);
      await page.goto(`${suite.server.origin}/task-list`);
      await page.getByTestId('data-table-row').first().waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await shoot(page, `tasks-list-375-${role.toLowerCase()}`);
      expect(errors).toEqual([]);
    },
  );

  it('carries a card down to the next stacked column with the keyboard at 375 px', async () => {
    const task = await createTask(sessions.CALLER, { title: 'Phone keyboard move', assigneeId: ids.CALLER });
    const { page } = await signedIn('CALLER', 375);
    await page.goto(`${suite.server.origin}/task-kanban?mine=true`);
    await carry(page, task._id, 'Phone keyboard move', 'ArrowDown', 'In progress');
    await column(page, 'in_progress').locator(`[data-task-id="${task._id}"]`).waitFor();
    await waitFor(async () => (await taskById(task._id)).status === 'in_progress', 'the phone move saved');
  });
});
