// The dashboards in real Chromium against the real all-in-one server: two espeak-ng
// calls uploaded and transcribed by the server's engine, one tagged and linked to a client, one
// scored by an analysis run against the kit's fake provider. Each page as each role, a chart's
// point opening its calls, light, dark and 375 px. Waits for conditions, never for time.
// Screenshots go to SCREENSHOT_DIR when it is set.
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, jest } from '@jest/globals';
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

jest.setTimeout(600_000);

const SHOTS = process.env.SCREENSHOT_DIR;
const ROLES: DemoRole[] = ['HOST_ADMIN', 'ADMIN', 'USER', 'CALLER'];
/** Who may open each dashboard (the issue's roles); the others are sent to /chat and see no menu entry. */
const ACCESS: Record<'analytics' | 'crm' | 'saas', DemoRole[]> = {
  analytics: ['HOST_ADMIN', 'ADMIN', 'USER', 'CALLER'],
  crm: ['HOST_ADMIN', 'ADMIN', 'CALLER'],
  saas: ['HOST_ADMIN'],
};
const TAG = 'renewal';
const CLIENT = 'Nordic Tyres';
const TASK = 'Send the renewal offer';

let workDir = '';
let companyId = '';
let promptId = '';
let clientId = '';
const fileIds: string[] = [];
const today = new Date().toISOString().slice(0, 10);
const monthStart = `${today.slice(0, 7)}-01`;

const suite = fakeProviderSuite(async () => {
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

async function ok(answer: Promise<Response>, what: string): Promise<unknown> {
  const response = await answer;
  if (!response.ok) throw new Error(`${what}: ${response.status} ${await response.text()}`);
  return response.status === 204 ? null : response.json();
}

async function uploadCall(api: ApiClient, name: string, text: string): Promise<string> {
  const wav = join(workDir, name);
  execFileSync('espeak-ng', ['-s', '150', '-w', wav, text]);
  const form = new FormData();
  form.append('file', new Blob([await readFile(wav)], { type: 'audio/wav' }), name);
  const { _id } = (await ok(api('/files/upload', { form }), `uploading ${name}`)) as { _id: string };
  await waitFor(async () => {
    const answer = (await (await api(`/transcripts/file/${_id}`)).json()) as { status: string };
    if (answer.status === 'failed') throw new Error(`${name} failed to transcribe`);
    return answer.status === 'completed';
  }, `${name} to be transcribed`);
  return _id;
}

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'earshot-dashboards-e2e-'));
  const { origin } = suite.server;
  const [user, admin, host] = await Promise.all([
    apiSession(origin, 'USER'),
    apiSession(origin, 'ADMIN'),
    apiSession(origin, 'HOST_ADMIN'),
  ]);
  fileIds.push(
    await uploadCall(
      user,
      'renewal-call.wav',
      'Hello, this is Nordic Tyres. We would like to renew our contract for another year. Of course, I will send the offer today. Thank you, goodbye.',
    ),
  );
  fileIds.push(
    await uploadCall(
      admin,
      'support-call.wav',
      'Good morning, my invoice looks wrong. I am sorry about that, let me correct it for you right now.',
    ),
  );

  const client = (await ok(
    admin('/clients', { json: { name: CLIENT, organisation: 'Nordic Tyres AS' } }),
    'creating the client',
  )) as { _id: string };
  clientId = client._id;
  // The transcription service learns of the client from its event, after the answer above: until
  // then the link is a 404.
  let linked: Response | undefined;
  await waitFor(
    async () =>
      (linked = await admin('/transcripts/link-client', {
        method: 'PUT',
        json: { transcriptId: fileIds[0], clientId: client._id },
      })).status !== 404,
    'the transcription service to know the client',
  );
  await ok(Promise.resolve(linked!), 'linking the call');
  await ok(admin(`/files/${fileIds[0]}/tags`, { method: 'PUT', json: { tags: [TAG] } }), 'tagging the call');
  // An open task about the client at a moment of the call: the CRM counts it, the timeline shows it.
  await ok(
    admin('/tasks', {
      json: { title: TASK, clientId: client._id, dueDate: today, link: { fileId: fileIds[0], seconds: 3 } },
    }),
    'creating the task',
  );

  // A scorecard: a global prompt with an integer field, run on the first call by the fake model.
  await connectFakeChatModel(host, suite.fake, { provider: 'Dashboards fake' });
  await priceChatModelsFree(host);
  const prompt = (await ok(
    host('/prompts', {
      json: {
        name: 'Renewal scorecard',
        prompt: 'Score this call: {{transcript}}',
        type: 'custom',
        isGlobal: true,
        expectedFormat: [
          { name: 'clarity', type: 'integer', range: '1-10', description: 'How clearly the agent explained' },
        ],
      },
    }),
    'creating the prompt',
  )) as { _id: string };
  promptId = prompt._id;
  suite.fake.setReply({ pieces: [JSON.stringify({ clarity: 8 })] });
  const run = (await ok(
    user('/analysis/transcripts', { json: { fileId: fileIds[0], promptId } }),
    'starting the analysis',
  )) as { _id: string };
  await waitFor(async () => {
    const runs = (await (await user(`/analysis/transcripts?fileId=${fileIds[0]}`)).json()) as Array<{
      _id: string;
      status: string;
      error?: string;
    }>;
    const mine = runs.find((item) => item._id === run._id);
    if (mine?.status === 'failed') throw new Error(`The analysis failed: ${mine.error}`);
    return mine?.status === 'completed';
  }, 'the analysis run');

  // The prompt service's read model follows the events: wait until it counts both calls and the score.
  await waitFor(async () => {
    const analytics = (await (
      await admin(`/dashboards/analytics?from=${monthStart}&to=${today}&groupBy=month`)
    ).json()) as { calls: Array<{ count: number }>; byTag: Array<{ tag: string }>; byClient: unknown[] };
    const scores = (await (
      await admin(
        `/dashboards/scorecards?from=${monthStart}&to=${today}&groupBy=month&promptId=${promptId}&field=clarity`,
      )
    ).json()) as Array<{ runs: number }>;
    const crm = (await (await admin('/dashboards/crm')).json()) as { items: Array<{ openTasks: number }> };
    return (
      analytics.calls.reduce((sum, point) => sum + point.count, 0) >= 2 &&
      analytics.byTag.some((row) => row.tag === TAG) &&
      analytics.byClient.length > 0 &&
      scores.some((point) => point.runs > 0) &&
      crm.items.some((row) => row.openTasks === 1)
    );
  }, 'the dashboards to count the calls, the tag, the client, the score and the open task');
  const companies = (await ok(host('/companies/dropdown'), 'the companies')) as Array<{ _id: string; name: string }>;
  companyId = (companies.find((company) => /acme/i.test(company.name)) ?? companies[0]!)._id;
}, 900_000);

async function signedIn(role: DemoRole, options: { width?: number; theme?: 'light' | 'dark' } = {}): Promise<Page> {
  const page = await suite.open({ width: options.width ?? 1280, height: 900 });
  await signIn(page, suite.server.origin, role);
  if (options.theme) await page.evaluate((value) => localStorage.setItem('theme', value), options.theme);
  return page;
}

/** The address of a dashboard for `role` (a HOST_ADMIN's names the company, as their picker would). */
function address(path: string, role: DemoRole, query = ''): string {
  const params = new URLSearchParams(query);
  if (role === 'HOST_ADMIN' && path !== '/saas') params.set('companyId', companyId);
  const search = params.toString();
  return `${suite.server.origin}${path}${search ? `?${search}` : ''}`;
}

const READY: Record<keyof typeof ACCESS, string> = {
  analytics: '[data-testid="total-calls"]',
  crm: '[data-testid="crm-table"] a[href^="/client/"]',
  saas: '[data-testid="saas-time-chart"] [data-testid="chart-canvas"]',
};

describe('dashboards in Chromium', () => {
  it('each page as each role: allowed roles see it in the menu and get figures, the others have no entry and are sent to /chat', async () => {
    for (const role of ROLES) {
      const page = await signedIn(role).catch((error: Error) => {
        throw new Error(`Signing in as ${role}: ${error.message}`, { cause: error });
      });
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(error.message));
      for (const [name, roles] of Object.entries(ACCESS) as Array<[keyof typeof ACCESS, DemoRole[]]>) {
        const allowed = roles.includes(role);
        await page.goto(
          address(`/${name}`, role, name === 'analytics' ? `from=${monthStart}&to=${today}&groupBy=month` : ''),
        );
        if (allowed) {
          await page.locator(READY[name]).first().waitFor();
          await expect(page.getByTestId(`menu-${name}`).count()).resolves.toBe(1);
          // The figures of the role's company (the HOST_ADMIN's pick): both calls of this month.
          if (name === 'analytics') expect(await page.getByTestId('total-calls').locator('dd').textContent()).toBe('2');
        } else {
          await page.waitForURL((url) => url.pathname === '/chat');
          await expect(page.getByTestId(`menu-${name}`).count()).resolves.toBe(0);
        }
      }
      // No call a role may not make (a USER asking for clients would log a 403).
      expect(errors).toEqual([]);
    }
  });

  it('a chart’s point opens its calls, which open their transcripts; a breakdown row opens its own', async () => {
    const page = await signedIn('CALLER');
    await page.goto(address('/analytics', 'CALLER', `from=${monthStart}&to=${today}&groupBy=month`));
    const canvas = page.getByTestId('calls-chart').getByTestId('chart-canvas');
    await canvas.waitFor();
    // One month in range, so the chart has one point: a click anywhere over the plot picks it.
    const box = (await canvas.boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    const drawer = page.getByTestId('calls-drawer');
    await drawer.getByTestId('calls-list').waitFor();
    await expect(drawer.getByRole('link').count()).resolves.toBe(2);
    expect(await drawer.getByRole('link', { name: 'renewal-call.wav' }).getAttribute('href')).toBe(
      `/transcripts/${fileIds[0]}`,
    );
    if (SHOTS) await page.screenshot({ path: join(SHOTS, 'analytics-calls-drawer.png') });
    await drawer.getByRole('button', { name: 'Close' }).click();

    await page
      .getByTestId('by-tag')
      .getByRole('button', { name: `Open the calls of ${TAG}` })
      .click();
    await drawer.getByTestId('calls-list').waitFor();
    await expect(drawer.getByRole('link').count()).resolves.toBe(1);
    await drawer.getByRole('link', { name: 'renewal-call.wav' }).click();
    await page.waitForURL((url) => url.pathname === `/transcripts/${fileIds[0]}`);
  });

  it('a scorecard field over time, and the CRM trend of it, from the run the fake model scored', async () => {
    const page = await signedIn('ADMIN');
    await page.goto(
      address('/analytics', 'ADMIN', `from=${monthStart}&to=${today}&groupBy=month&promptId=${promptId}&field=clarity`),
    );
    const chart = page.getByTestId('scorecard-chart');
    await chart.getByTestId('chart-canvas').waitFor();
    await chart.getByText('Show the figures as a table').click();
    expect(await chart.getByTestId('scorecard-chart-row').first().locator('td').textContent()).toBe('8');

    await page.goto(address('/crm', 'ADMIN', `promptId=${promptId}&field=clarity`));
    const trend = page.getByTestId('crm-table').getByTestId('trend');
    await trend.waitFor();
    expect(await trend.textContent()).toBe('8');
    expect(await page.getByTestId('crm-table').getByRole('row').nth(1).textContent()).toMatch(
      /^Nordic TyresNordic Tyres AS1.+81Open$/,
    );
    await page.getByTestId('crm-table').getByRole('link', { name: CLIENT }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/client/'));
    const timeline = page.getByTestId('client-timeline');
    await timeline.getByRole('link', { name: 'renewal-call.wav' }).waitFor();
    await timeline.getByText(TASK).waitFor();
    expect(await timeline.getByRole('link', { name: 'at 0:03' }).getAttribute('href')).toBe(
      `/transcripts/${fileIds[0]}?t=3`,
    );
  });

  it('fits 1280 and 375 px in light and dark without sideways page scroll, with no serious axe violation (screenshots)', async () => {
    const pages: Array<[name: string, role: DemoRole, path: string, query: string, ready: string]> = [
      [
        'analytics',
        'ADMIN',
        '/analytics',
        `from=${monthStart}&to=${today}&groupBy=week&promptId=${promptId}&field=clarity`,
        '[data-testid="time-chart"] [data-testid="chart-canvas"]',
      ],
      ['crm', 'ADMIN', '/crm', `promptId=${promptId}&field=clarity`, '[data-testid="trend"]'],
      ['saas', 'HOST_ADMIN', '/saas', '', READY.saas],
      ['client', 'CALLER', `/client/${clientId}`, '', '[data-testid="client-timeline"] a[href^="/transcripts/"]'],
    ];
    for (const width of [1280, 375]) {
      for (const theme of ['light', 'dark'] as const) {
        for (const [name, role, path, query, ready] of pages) {
          const page = await signedIn(role, { width, theme });
          await page.goto(address(path, role, query));
          await page.locator(ready).first().waitFor();
          // Every chart of the page drawn (Chart.js arrives in its own chunk) before the picture.
          await waitFor(async () => (await page.locator('figure [role="status"]').count()) === 0, `${name}'s charts`);
          await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(width);
          if (SHOTS) await page.screenshot({ path: join(SHOTS, `${name}-${width}-${theme}.png`), fullPage: true });
          // axe-core on each page once: no serious or critical violation (names, contrast, roles).
          if (width === 1280) await expect(seriousViolations(page)).resolves.toEqual([]);
          await page.close();
        }
      }
    }
  });
});
