// Custom GPTs in real Chromium against the real all-in-one server (`npm start`): an ADMIN creates a
// GPT with instructions and a two-page PDF (made here with pdf-lib), waits until the file is
// ready; a USER picks the GPT in the chat, asks, sees the cited page and opens the file at it. No
// chat model is configured, so the built-in assistant answers from the GPT's files. Waits for
// conditions, never for time.
import { describe, expect, it, jest } from '@jest/globals';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { Page } from 'playwright-core';
import { apiSession, browserSuite, seriousViolations, shootThemes, signIn } from './harness';

jest.setTimeout(300_000);

const suite = browserSuite();

const GPT_NAME = `Travel policy ${process.pid}`;
const FILE_NAME = 'travel-policy.pdf';

/** Page 1 about the office, page 2 about holidays: the answer must cite page 2. */
async function policyPdf(): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const pages = [
    [
      'Acme staff handbook.',
      'The office opens at eight in the morning and closes at six in the evening.',
      'Visitors sign in at the front desk.',
    ],
    [
      'Holiday allowance.',
      'Every employee gets twenty-eight days of paid holiday per calendar year.',
      'Unused holiday days expire at the end of March.',
    ],
  ];
  for (const lines of pages) {
    const page = pdf.addPage([595, 842]);
    lines.forEach((line, at) => page.drawText(line, { x: 50, y: 780 - at * 18, size: 12, font }));
  }
  return Buffer.from(await pdf.save());
}

async function signedIn(who: 'ADMIN' | 'USER', width = 1280): Promise<Page> {
  const page = await suite.open({ width });
  await signIn(page, suite.server.origin, who);
  return page;
}

describe('custom GPTs', () => {
  it('an ADMIN creates a GPT with a PDF that gets ready; a USER chats with it and opens the cited page', async () => {
    const admin = await signedIn('ADMIN');
    await admin.goto(`${suite.server.origin}/custom-gpts`);
    await admin.getByRole('heading', { name: 'Custom GPTs' }).waitFor();
    await admin.getByTestId('gpt-new').click();
    const form = admin.getByTestId('gpt-form');
    // The form says what is missing before anything is sent.
    await form.getByRole('button', { name: 'Create GPT' }).click();
    await form.getByText('Required').first().waitFor();
    await form.getByLabel('Name').fill(GPT_NAME);
    await form
      .getByLabel('Description')
      .fill('Answers questions about holidays and the office from the staff handbook.');
    await form
      .getByLabel('Instructions')
      .fill('You answer staff questions about the travel and holiday policy. Quote the handbook and cite it.');
    await form.getByTestId('add-starter').click();
    await form
      .getByRole('textbox', { name: 'Starter 1', exact: true })
      .fill('How many days of paid holiday does an employee get?');
    await form.getByRole('button', { name: 'Create GPT' }).click();

    // On to its edit page: the knowledge file goes up, is read and indexed.
    await admin.getByTestId('gpt-created').waitFor();
    await admin
      .getByTestId('knowledge-input')
      .setInputFiles({ name: FILE_NAME, mimeType: 'application/pdf', buffer: await policyPdf() });
    const row = admin.getByTestId('knowledge-file').filter({ hasText: FILE_NAME });
    await row.and(admin.locator('[data-status="ready"]')).waitFor({ timeout: 120_000 });
    await expect(row.getByTestId('knowledge-status').textContent()).resolves.toBe('Ready');
    await expect(row.textContent()).resolves.toContain('Pages: 2');
    expect(await seriousViolations(admin)).toEqual([]);
    await shootThemes(admin, 'custom-gpt-edit');

    await admin.goto(`${suite.server.origin}/custom-gpts`);
    await admin.getByRole('cell', { name: new RegExp(`^${GPT_NAME}`) }).waitFor();
    expect(await seriousViolations(admin)).toEqual([]);
    await shootThemes(admin, 'custom-gpts-list');

    const user = await signedIn('USER');
    await user.goto(`${suite.server.origin}/chat`);
    await user.getByRole('button', { name: 'New chat with…' }).click();
    await user
      .getByTestId('gpt-picker')
      .getByRole('button', { name: new RegExp(GPT_NAME) })
      .click();
    const intro = user.getByTestId('gpt-intro');
    await intro.getByRole('heading', { name: GPT_NAME }).waitFor();
    await shootThemes(user, 'chat-custom-gpt-intro');
    await intro.getByRole('button', { name: 'How many days of paid holiday does an employee get?' }).click();

    const reply = user.getByTestId('assistant-message').last();
    await reply.and(user.locator('[data-phase="complete"]')).waitFor({ timeout: 120_000 });
    await user.getByTestId('gpt-banner').waitFor();
    const citation = reply.getByTestId('file-citation').filter({ hasText: 'page 2' }).first();
    await expect(citation.textContent()).resolves.toMatch(
      new RegExp(`^\\[\\d+\\] ${FILE_NAME.replace('.', '\\.')} · page 2$`),
    );
    const href = await citation.getAttribute('href');
    expect(href).toMatch(/^\/api\/custom-gpt\/[0-9a-f-]+\/files\/[0-9a-f-]+#page=2$/);
    await shootThemes(user, 'chat-custom-gpt');

    // Opens in a new tab at the page: the GPT's file itself, served to the person chatting with it.
    const served = user
      .context()
      .waitForEvent(
        'response',
        (response) => response.url() === new URL(href!, suite.server.origin).href.replace(/#.*$/, ''),
      );
    const [tab] = await Promise.all([user.context().waitForEvent('page'), citation.click()]);
    const response = await served;
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toContain('application/pdf');
    expect(tab.url()).toMatch(/#page=2$/);
    // Chromium hands the tab to its PDF viewer, so the bytes are checked through the same person's session.
    const file = await (await apiSession(suite.server.origin, 'USER'))(href!.replace(/^\/api/, '').replace(/#.*$/, ''));
    expect(file.status).toBe(200);
    expect(
      Buffer.from(await file.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
  });
});
