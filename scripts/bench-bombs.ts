/**
 * `npm run bench:bombs`: figures for docs/performance.md (untrusted files read within limits).
 * The product runs as `npm start` runs it (`node --import tsx gateway/src/all-in-one.ts`, a child
 * process, default limits), on 127.0.0.1 with embedded PostgreSQL in a temporary DATA_DIR (or the
 * server BENCH_DATABASE_URL names). The platform administrator uploads to a platform GPT:
 *  (a) a DOCX of about 300 KB whose text inflates to 300 MiB, and
 *  (b) a PDF of 100,000 empty pages (about 10 MB):
 *      each timed from the upload's answer until the file is `failed`, while /api/health is called
 *      back to back (its p99 and slowest answer meanwhile);
 *  (c) a legitimate PDF of about 20 MB (BENCH_PAGES pages of text, 1,500 by default, and an
 *      attachment of random bytes): until `ready`, with the process's peak resident memory over
 *      its level before the upload (sampled every 20 ms from /proc).
 * Figures depend on the machine and its load.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { get } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { KnowledgeFileDto } from '@earshot/contracts';
import { CSRF_HEADER } from '@earshot/kit';
import { docxWithText, pdfWithPages } from '../tests/system/chat/bomb-fixtures';
import { ms, prng } from './bench-stats';

const PAGES = Number(process.env.BENCH_PAGES ?? 1_500);
const MB = 1024 * 1024;
const root = join(import.meta.dirname, '..');
const dataDir = mkdtempSync(join(tmpdir(), 'earshot-bench-bombs-'));
const email = 'bench@bombs.test';
const password = 'bench-bombs-password-1';

const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'gateway', 'src', 'all-in-one.ts')], {
  cwd: root,
  env: {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    WEB_DIST: dataDir,
    SEED_DEMO: 'false',
    LOG_LEVEL: 'warn',
    ADMIN_EMAIL: email,
    ADMIN_PASSWORD: password,
    // Health is never shed; an upload refused with 503 while the start-up work still runs would
    // end the run, so nothing is shed here.
    LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
    LOAD_SHED_MAX_QUEUE_DELAY_MS: '0',
    // Health is called back to back, far more than one address may call in a minute.
    RATE_LIMIT_MAX: '10000000',
    ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : { DATABASE_URL: '' }),
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
// However this script ends, the product it started ends with it.
process.once('exit', () => child.kill('SIGKILL'));
const origin = await new Promise<string>((resolve, reject) => {
  child.once('exit', (code, signal) => reject(new Error(`the product stopped (exit code ${code}, ${signal})`)));
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const running = /Earshot is running at (http:\/\/\S+)/.exec(line);
    if (running) resolve(running[1]!.replace('localhost', '127.0.0.1'));
    // The product's warnings and errors (LOG_LEVEL=warn) go with the figures.
    else if (line.startsWith('{')) console.error(line);
  });
});

/**
 * GET /api/health on a connection of its own (no keep-alive: a kept-alive socket the server is
 * closing after an upload would fail the call and say nothing about the answer's time).
 */
const healthCheck = () =>
  new Promise<void>((resolve, reject) => {
    get(`${origin}/api/health`, { agent: false }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`health: ${res.statusCode}`));
      res.resume().on('end', resolve).on('error', reject);
    }).on('error', reject);
  });

/** Resident memory of the product's process, from /proc (the process and every thread of it). */
const rss = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]) * 1024;

try {
  const login = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const token = /earshot_at=([^;]+)/.exec(login.headers.getSetCookie().join('\n'))?.[1];
  if (!token) throw new Error(`sign in: ${login.status} ${await login.text()}`);
  const headers = { authorization: `Bearer ${token}`, [CSRF_HEADER]: 'XMLHttpRequest' };
  const gpt = await fetch(`${origin}/api/custom-gpt`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Bench', instructions: 'Answer from the files.', visibility: 'company' }),
  });
  if (gpt.status !== 201) throw new Error(`create GPT: ${gpt.status} ${await gpt.text()}`);
  const gptId = ((await gpt.json()) as { _id: string })._id;

  /** Uploads, then waits for the end state while health is called back to back and memory sampled. */
  const measure = async (name: string, type: string, data: Buffer, until: 'failed' | 'ready') => {
    const health: number[] = [];
    let done = false;
    const baseline = rss();
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, rss())), 20);
    const prober = (async () => {
      while (!done) {
        const started = performance.now();
        await healthCheck();
        health.push(performance.now() - started);
      }
    })();
    // Its failure is the run's, reported once the file is done with.
    prober.catch(() => undefined);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(data)], { type }), name);
    // A kept-alive connection the server closes as the upload starts is tried again (a new one).
    let res: Response | undefined;
    for (let attempt = 0; !res; attempt++) {
      res = await fetch(`${origin}/api/custom-gpt/${gptId}/files?type=knowledge`, {
        method: 'POST',
        headers,
        body: form,
      }).catch((error: unknown) => {
        if (attempt === 2) throw error;
        return undefined;
      });
    }
    if (res.status !== 201) throw new Error(`upload ${name}: ${res.status} ${await res.text()}`);
    const id = ((await res.json()) as KnowledgeFileDto)._id;
    const started = performance.now();
    let file: KnowledgeFileDto | undefined;
    for (;;) {
      const files = (await (
        await fetch(`${origin}/api/custom-gpt/${gptId}/files`, { headers })
      ).json()) as KnowledgeFileDto[];
      file = files.find((f) => f._id === id);
      if (file && (file.status === 'failed' || file.status === 'ready')) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const seconds = (performance.now() - started) / 1000;
    done = true;
    clearInterval(sampler);
    await prober;
    if (file.status !== until) throw new Error(`${name} ended ${file.status}: ${file.error}`);
    const sorted = health.sort((a, b) => a - b);
    const p99 = sorted[Math.min(sorted.length - 1, Math.ceil(0.99 * sorted.length) - 1)]!;
    return { seconds, error: file.error, p99, slowest: sorted.at(-1)!, probes: sorted.length, peak: peak - baseline };
  };

  const docx = await docxWithText(300 * MB);
  const a = await measure('bomb.docx', 'application/octet-stream', docx, 'failed');
  const pages = pdfWithPages(100_000);
  const b = await measure('pages.pdf', 'application/pdf', pages, 'failed');

  // A legitimate 20 MB PDF: pages of text (about 2,000 characters each) and an attachment.
  const rand = prng(11);
  const word = () => Math.floor(rand.next().value! * 1e6).toString(36);
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let p = 0; p < PAGES; p++) {
    const page = pdf.addPage([595, 842]);
    for (let line = 0; line < 40; line++)
      page.drawText(Array.from({ length: 12 }, word).join(' '), { x: 30, y: 800 - line * 19, size: 10, font });
  }
  const sized = Buffer.from(await pdf.save()).length;
  await pdf.attach(randomBytes(Math.max(0, 20 * MB - sized - 64 * 1024)), 'appendix.bin', {
    mimeType: 'application/octet-stream',
  });
  const legit = Buffer.from(await pdf.save());
  const c = await measure('legit.pdf', 'application/pdf', legit, 'ready');

  const mb = (n: number) => `${(n / MB).toFixed(1)} MB`;
  console.log(
    JSON.stringify(
      {
        when: new Date().toISOString(),
        cores: availableParallelism(),
        load: loadavg().map((n) => n.toFixed(2)),
        database: process.env.BENCH_DATABASE_URL ? 'postgres' : 'pglite',
        docxBomb: {
          upload: mb(docx.length),
          toFailed: `${a.seconds.toFixed(2)} s`,
          reason: a.error,
          healthP99: ms(a.p99),
          healthMax: ms(a.slowest),
          probes: a.probes,
          peakMemory: mb(a.peak),
        },
        pagesBomb: {
          upload: mb(pages.length),
          toFailed: `${b.seconds.toFixed(2)} s`,
          reason: b.error,
          healthP99: ms(b.p99),
          healthMax: ms(b.slowest),
          probes: b.probes,
          peakMemory: mb(b.peak),
        },
        legitimatePdf: {
          upload: mb(legit.length),
          pages: PAGES,
          toReady: `${c.seconds.toFixed(2)} s`,
          healthP99: ms(c.p99),
          healthMax: ms(c.slowest),
          peakMemory: mb(c.peak),
        },
      },
      null,
      2,
    ),
  );
} finally {
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  rmSync(dataDir, { recursive: true, force: true });
}
