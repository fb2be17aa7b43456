import {
  existsSync,
  lutimesSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable, Writable } from 'node:stream';
import pino from 'pino';
import { LocalDiskStorage, STALE_TEMP_MS, startTempSweep } from '../src';

// A put cut short by a crash leaves its partial file in objects/.tmp; the sweep removes those once
// they have gone unwritten for an hour, and nothing else. Files are backdated with utimes and the
// clock is passed in, so nothing waits.

let root: string;
let tmp: string;
const NOW = Date.parse('2031-06-01T12:00:00Z');
const now = () => NOW;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'earshot-temp-sweep-'));
  tmp = join(root, '.tmp');
  mkdirSync(tmp);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const OLD = 10 * STALE_TEMP_MS;
const backdate = (path: string, ageMs: number) => utimesSync(path, (NOW - ageMs) / 1000, (NOW - ageMs) / 1000);

/** A partial file as put names it, last written `ageMs` before NOW. */
function partial(ageMs: number, dir = tmp, name: string = randomUUID()): string {
  writeFileSync(join(dir, name), 'half an upload');
  backdate(join(dir, name), ageMs);
  return name;
}

/** A logger whose lines the test reads; `logged(n)` resolves once n lines are in. */
function capturedLogger() {
  const lines: Record<string, unknown>[] = [];
  let arrived = () => {};
  const logger = pino(
    { level: 'info' },
    new Writable({
      write(chunk, _enc, done) {
        lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
        arrived();
        done();
      },
    }),
  );
  const logged = (n: number) =>
    new Promise<void>((resolve) => {
      arrived = () => lines.length >= n && resolve();
      arrived();
    });
  return { logger, lines, logged };
}

test('an old partial file goes, a fresh one (an upload in progress) stays', async () => {
  const old = partial(STALE_TEMP_MS + 1000);
  const fresh = partial(STALE_TEMP_MS - 1000);
  const storage = new LocalDiskStorage(root);
  expect(await storage.sweepTemp({ now })).toBe(1);
  expect(readdirSync(tmp)).toEqual([fresh]);
  expect(existsSync(join(tmp, old))).toBe(false);
  // The threshold is the caller's: with a shorter one the fresh file is old enough too.
  expect(await storage.sweepTemp({ now, maxAgeMs: 500 })).toBe(1);
  expect(readdirSync(tmp)).toEqual([]);
});

test('nothing outside the temporary folder, and nothing in it that put did not write, is touched', async () => {
  const storage = new LocalDiskStorage(root);
  await storage.put('company/kept', Readable.from([Buffer.from('a whole object')]), { contentType: 'audio/wav' });
  backdate(join(root, 'company', 'kept'), OLD);
  // Old files named like partials, but in an object's folder and beside the temporary folder.
  const outside = partial(OLD, join(root, 'company'));
  const target = partial(OLD, root);
  // In it, but not put's: another name, a folder, and a link (to a file outside) named like a partial.
  partial(OLD, tmp, 'notes.txt');
  const folder = randomUUID();
  mkdirSync(join(tmp, folder));
  backdate(join(tmp, folder), OLD);
  const link = randomUUID();
  symlinkSync(join(root, target), join(tmp, link));
  lutimesSync(join(tmp, link), (NOW - OLD) / 1000, (NOW - OLD) / 1000);

  expect(await storage.sweepTemp({ now })).toBe(0);
  expect(readdirSync(tmp).sort()).toEqual([folder, link, 'notes.txt'].sort());
  expect(readdirSync(join(root, 'company')).sort()).toEqual(['kept', outside].sort());
  expect(existsSync(join(root, target))).toBe(true);
  expect((await storage.stat('company/kept'))?.size).toBe(14);
});

test('a put in progress keeps its file through a sweep and lands whole', async () => {
  const storage = new LocalDiskStorage(root);
  const body = new PassThrough();
  const put = storage.put('company/uploading', body, { contentType: 'audio/wav' });
  body.write('first half, ');
  // The put's file exists and was just written: the real clock says it is fresh.
  while (readdirSync(tmp).length === 0) await new Promise((resolve) => setImmediate(resolve));
  expect(await storage.sweepTemp()).toBe(0);
  body.end('second half');
  expect(await put).toEqual({ size: 23 });
  expect(readdirSync(tmp)).toEqual([]);
});

test('a start sweeps at once, then each interval, logging how many went but never their names', async () => {
  const first = partial(2 * STALE_TEMP_MS);
  const { logger, lines, logged } = capturedLogger();
  const storage = new LocalDiskStorage(root);
  // A short interval, and the test waits for the next pass's log line rather than for a time.
  const timer = await startTempSweep(storage, logger, { now, everyMs: 10 });
  try {
    expect(readdirSync(tmp)).toEqual([]);
    expect(lines).toEqual([expect.objectContaining({ removed: 1 })]);
    expect(timer.hasRef()).toBe(false);
    const second = partial(2 * STALE_TEMP_MS);
    await logged(2);
    expect(readdirSync(tmp)).toEqual([]);
    expect(lines[1]).toMatchObject({ removed: 1 });
    expect(JSON.stringify(lines)).not.toMatch(new RegExp(`${first}|${second}`));
  } finally {
    clearInterval(timer);
  }
});

test('a start with no temporary folder yet (nothing was ever put) does nothing and logs nothing', async () => {
  rmSync(tmp, { recursive: true });
  const { logger, lines } = capturedLogger();
  clearInterval(await startTempSweep(new LocalDiskStorage(root), logger, { now }));
  expect(lines).toEqual([]);
  expect(existsSync(tmp)).toBe(false);
});
