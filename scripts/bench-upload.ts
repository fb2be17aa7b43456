/**
 * Upload benchmark (part of `npm run bench:transcription`; runnable alone: `npx tsx scripts/bench-upload.ts`).
 * Starts the all-in-one server on a random port with a temporary DATA_DIR and the demo company,
 * signs in as admin@acme.test (domain acme) and uploads a generated 1 GiB WAV (a header and zeros,
 * written to disk first, never held in memory) over real HTTP with a streaming client. Reports the
 * throughput, the peak RSS growth of the process during the upload (the server runs in-process;
 * the client only streams from disk), and the ratio against a plain disk copy of the same file.
 * BENCH_UPLOAD_BYTES changes the size, BENCH_UPLOAD_ROUNDS the number of rounds (default 3).
 */
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { pathToFileURL } from 'node:url';
import { createAllInOne } from '@earshot/gateway';

export interface UploadFigures {
  bytes: number;
  /** Copy-then-upload rounds; the best time of each is kept. */
  rounds: number;
  upload: { seconds: number; mbPerSecond: number; status: number };
  diskCopy: { seconds: number; mbPerSecond: number };
  /** Upload throughput divided by plain disk copy throughput (1 = as fast as a copy). */
  ratioToDiskCopy: number;
  /** Highest RSS seen during the upload minus the RSS just before it. */
  peakRssGrowthMiB: number;
  rssBeforeMiB: number;
  storedBytesMatch: boolean;
}

const MiB = 1024 * 1024;
const DEMO_PASSWORD = 'bench-demo-password-1';

function wavHeader(dataBytes: number): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(Math.min(0xffffffff, 36 + dataBytes), 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(16_000, 24);
  header.writeUInt32LE(32_000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(Math.min(0xffffffff, dataBytes), 40);
  return header;
}

/** Writes a WAV of exactly `bytes` bytes (header + silence) in 1 MiB pieces. */
async function writeWav(path: string, bytes: number): Promise<void> {
  const zeros = Buffer.alloc(MiB);
  async function* pieces() {
    yield wavHeader(bytes - 44);
    for (let left = bytes - 44; left > 0; left -= MiB) yield left >= MiB ? zeros : zeros.subarray(0, left);
  }
  await pipeline(Readable.from(pieces()), createWriteStream(path));
}

async function timed<T>(fn: () => Promise<T>): Promise<{ seconds: number; value: T }> {
  const started = performance.now();
  const value = await fn();
  return { seconds: (performance.now() - started) / 1000, value };
}

/** Streams `path` as the file part of a multipart POST; resolves with the status and body. */
function postFile(
  url: string,
  headers: Record<string, string>,
  path: string,
  size: number,
): Promise<{ status: number; body: string }> {
  const boundary = `----earshot${randomUUID().replace(/-/g, '')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.wav"\r\nContent-Type: audio/wav\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, {
      method: 'POST',
      headers: {
        ...headers,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(head.length + size + tail.length),
      },
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (text: string) => (body += text));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.write(head);
    const file = createReadStream(path, { highWaterMark: 256 * 1024 });
    file.on('error', reject);
    file.on('end', () => req.end(tail));
    file.pipe(req, { end: false });
  });
}

export async function benchUpload(
  bytes = Number(process.env.BENCH_UPLOAD_BYTES ?? 1024 ** 3),
  rounds = Number(process.env.BENCH_UPLOAD_ROUNDS ?? 3),
): Promise<UploadFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'earshot-bench-upload-'));
  const dataDir = join(dir, 'data');
  const earshot = await createAllInOne({
    env: {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      SEED_DEMO: 'true',
      DEMO_PASSWORD,
      ADMIN_PASSWORD: 'bench-admin-password-1',
      MAX_UPLOAD_BYTES: String(Math.max(bytes, 1024 ** 3)),
      // Measure the upload alone: no transcription of a gigabyte of silence in the background.
      TRANSCRIPTION_WORKER: 'false',
      STORAGE_DRIVER: 'local',
    },
  });
  try {
    const address = await earshot.app.listen({ host: '127.0.0.1', port: 0 });
    const login = await fetch(`${address}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@acme.test', password: DEMO_PASSWORD, domain: 'acme' }),
    });
    if (login.status !== 200) throw new Error(`sign-in failed: ${login.status} ${await login.text()}`);
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');

    const source = join(dir, 'source.wav');
    await writeWav(source, bytes);
    // Rounds alternate a plain copy and an upload of the same file; the best of each counts, so
    // neither pays alone for the page cache or the write-back of the file just generated.
    let copySeconds = Infinity;
    let uploadSeconds = Infinity;
    let rssBefore = Infinity;
    let rssGrowth = 0;
    let storedBytesMatch = true;
    let status = 0;
    for (let round = 0; round < rounds; round++) {
      const copy = await timed(() => pipeline(createReadStream(source), createWriteStream(join(dir, 'copy.wav'))));
      rmSync(join(dir, 'copy.wav'));
      copySeconds = Math.min(copySeconds, copy.seconds);

      global.gc?.();
      const before = process.memoryUsage().rss;
      let peak = before;
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().rss);
      }, 20);
      const upload = await timed(() =>
        postFile(`${address}/api/files/upload`, { cookie, 'x-requested-with': 'XMLHttpRequest' }, source, bytes),
      );
      clearInterval(sampler);
      peak = Math.max(peak, process.memoryUsage().rss);
      status = upload.value.status;
      if (status !== 201) throw new Error(`upload failed: ${status} ${upload.value.body}`);
      uploadSeconds = Math.min(uploadSeconds, upload.seconds);
      rssBefore = Math.min(rssBefore, before);
      rssGrowth = Math.max(rssGrowth, peak - before);
      const stored = JSON.parse(upload.value.body) as { path: string; size: number };
      const object = join(dataDir, 'objects', stored.path);
      storedBytesMatch &&= statSync(object).size === bytes && stored.size === bytes;
      rmSync(object);
    }

    const rate = (seconds: number) => Number((bytes / MiB / seconds).toFixed(1));
    return {
      bytes,
      rounds,
      upload: { seconds: Number(uploadSeconds.toFixed(2)), mbPerSecond: rate(uploadSeconds), status },
      diskCopy: { seconds: Number(copySeconds.toFixed(2)), mbPerSecond: rate(copySeconds) },
      ratioToDiskCopy: Number((copySeconds / uploadSeconds).toFixed(2)),
      peakRssGrowthMiB: Number((rssGrowth / MiB).toFixed(1)),
      rssBeforeMiB: Number((rssBefore / MiB).toFixed(1)),
      storedBytesMatch,
    };
  } finally {
    await earshot.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const figures = await benchUpload();
  console.log(
    `Upload of ${(figures.bytes / MiB).toFixed(0)} MiB over HTTP into local-disk storage (best of ${figures.rounds} rounds):`,
  );
  console.log(`  upload:     ${figures.upload.seconds} s, ${figures.upload.mbPerSecond} MiB/s`);
  console.log(
    `  disk copy:  ${figures.diskCopy.seconds} s, ${figures.diskCopy.mbPerSecond} MiB/s (fs stream pipe of the same file)`,
  );
  console.log(`  ratio:      ${figures.ratioToDiskCopy} of disk-copy throughput`);
  console.log(
    `  memory:     peak RSS growth ${figures.peakRssGrowthMiB} MiB during an upload (RSS before: ${figures.rssBeforeMiB} MiB)`,
  );
  console.log(`  stored:     ${figures.storedBytesMatch ? 'byte count matches' : 'SIZE MISMATCH'}`);
  process.exit(0);
}
