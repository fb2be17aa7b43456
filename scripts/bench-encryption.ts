// `npm run bench:encryption`: the cost of encryption at rest on the storage path the file
// service uses, on local disk: storing a recording (upload) and reading byte ranges (playback
// seeks, as a browser asks for them), with encryption against the same without (goal ≤ 1.2×).
// Both go through EncryptingStorage (a company that never had a key is read straight through).
// Then the same through the file service's HTTP routes over real HTTP on loopback (multipart
// parsing, type sniffing, the database row, the Range answer), which is what a browser sees.
//
// Plain and encrypted trials alternate (plain, encrypted, encrypted, plain, ...), a Range trial
// being one request at the same offset on each side, and each upload's object is flushed to disk
// after it (untimed), so neither side is charged for the other's writeback or for a moment when
// the shared machine was busier: the ratio compares like with like.
import { randomBytes, randomUUID } from 'node:crypto';
import { closeSync, fsyncSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { SYSTEM_ACTOR } from '@earshot/contracts';
import { buildEnvelope, EncryptingStorage, LocalDiskStorage } from '@earshot/kit';
import { createTestStack, openThrowawayDatabase, serveUnmeteredCredits } from '@earshot/kit/testing';
import { fileService } from '../services/file/src';
import { announceCompany, uploadRequest, wavHeader } from '../services/file/test/helpers';

const MiB = 1024 * 1024;
const SIZE = Number(process.env.BENCH_MB ?? 64) * MiB;
const UPLOADS = 6;
/** BENCH_RANGES: more requests for a steadier figure on a busy machine. */
const RANGES = Number(process.env.BENCH_RANGES ?? 1000);
const RANGE_BYTES = 256 * 1024;

const root = mkdtempSync(join(tmpdir(), 'earshot-bench-enc-'));
const plainCompany = randomUUID();
const encryptedCompany = randomUUID();
const key = randomBytes(32);
const storage = new EncryptingStorage(new LocalDiskStorage(root), {
  encrypts: async (companyId) => companyId === encryptedCompany,
  dataKey: async (companyId) => (companyId === encryptedCompany ? key : null),
  mayHaveEncrypted: async (companyId) => companyId === encryptedCompany,
});
const data = randomBytes(SIZE);

/** The recording in 64 KiB pieces, as a multipart upload arrives. */
const pieces = () =>
  Readable.from(
    (function* () {
      for (let at = 0; at < data.length; at += 64 * 1024) yield data.subarray(at, at + 64 * 1024);
    })(),
  );

async function drainToBuffer(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function drain(stream: Readable): Promise<number> {
  let n = 0;
  for await (const chunk of stream) n += (chunk as Buffer).length;
  return n;
}

/**
 * Writes the object a trial stored to disk (fsync, untimed), so the next trial does not pay for
 * its writeback. Not sync(1): forking a process before each trial made every page the next trial
 * wrote a copy-on-write fault, which charged the side that allocates (encryption) ~0.2 s per upload.
 */
function flushObject(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Runs `trial` for plain and encrypted `rounds` times each, in ABBA order, and returns the total
 * milliseconds of each side (warm-up first: one trial each, not counted). A trial returns the path
 * of a file it wrote, if any, to be flushed before the next one.
 */
async function alternate(
  rounds: number,
  trial: (encrypted: boolean) => Promise<string | void>,
): Promise<{ plain: number; encrypted: number }> {
  const run = async (encrypted: boolean) => {
    const started = performance.now();
    const written = await trial(encrypted);
    const took = performance.now() - started;
    if (written) flushObject(written);
    return took;
  };
  await run(false);
  await run(true);
  const totals = { plain: 0, encrypted: 0 };
  for (let i = 0; i < rounds; i++) {
    for (const encrypted of i % 2 === 0 ? [false, true] : [true, false])
      totals[encrypted ? 'encrypted' : 'plain'] += await run(encrypted);
  }
  return totals;
}

/** The offsets in turn, on each side separately: the plain and the encrypted object are read at the same places. */
function offsetsPerSide(offsets: number[]): (encrypted: boolean) => number {
  const next = { plain: 0, encrypted: 0 };
  return (encrypted) => offsets[next[encrypted ? 'encrypted' : 'plain']++]!;
}

const ratio = ({ plain, encrypted }: { plain: number; encrypted: number }) => (encrypted / plain).toFixed(2);

try {
  // One more than the ranges timed: the warm-up reads one on each side.
  const offsets = Array.from({ length: RANGES + 1 }, () => Math.floor(Math.random() * (SIZE - RANGE_BYTES)));
  const stored: Record<'plain' | 'encrypted', string> = { plain: '', encrypted: '' };
  const uploads = await alternate(UPLOADS, async (encrypted) => {
    const objectKey = `${encrypted ? encryptedCompany : plainCompany}/${randomUUID()}`;
    await storage.put(objectKey, pieces(), { contentType: 'audio/wav' });
    stored[encrypted ? 'encrypted' : 'plain'] = objectKey;
    return join(root, objectKey);
  });
  const nextOffset = offsetsPerSide(offsets);
  const ranges = await alternate(RANGES, async (encrypted) => {
    const start = nextOffset(encrypted);
    const got = await drain(
      await storage.get(stored[encrypted ? 'encrypted' : 'plain'], { start, end: start + RANGE_BYTES - 1 }),
    );
    if (got !== RANGE_BYTES) throw new Error(`range of ${got} bytes`);
  });
  const mbps = (ms: number) => ((SIZE * UPLOADS) / MiB / (ms / 1000)).toFixed(0);
  console.log(
    `storage upload of ${UPLOADS} × ${SIZE / MiB} MiB: plain ${uploads.plain.toFixed(0)} ms (${mbps(uploads.plain)} MiB/s), encrypted ${uploads.encrypted.toFixed(0)} ms (${mbps(uploads.encrypted)} MiB/s): ${ratio(uploads)}×`,
  );
  console.log(
    `storage ${RANGES} Range reads of ${RANGE_BYTES / 1024} KiB: plain ${(ranges.plain / RANGES).toFixed(2)} ms each, encrypted ${(ranges.encrypted / RANGES).toFixed(2)} ms each: ${ratio(ranges)}×`,
  );
  await overHttp(offsets);
} finally {
  rmSync(root, { recursive: true, force: true });
}

/** Over real HTTP on loopback (the service listening, fetch as the client), as a browser sees it. */
async function overHttp(offsets: number[]): Promise<void> {
  // PostgreSQL when DATABASE_URL names a server (a throwaway database), else PGlite in the process,
  // whose work on every request makes both sides slower and so the ratio smaller.
  const database = process.env.DATABASE_URL
    ? await openThrowawayDatabase(process.env.DATABASE_URL, 'earshot_bench', 10)
    : undefined;
  console.log(`HTTP on ${database ? 'PostgreSQL' : 'PGlite (set DATABASE_URL for PostgreSQL)'}:`);
  const stack = await createTestStack(
    [fileService],
    { ENCRYPTION_MASTER_KEY: randomBytes(32).toString('hex'), MAX_UPLOAD_BYTES: String(2 * SIZE) },
    { database },
  );
  try {
    serveUnmeteredCredits(stack.database);
    const base = await stack.app.listen({ host: '127.0.0.1', port: 0 });
    const wav = Buffer.concat([wavHeader(SIZE - 44), data.subarray(44)]);
    const policies = (encryption: boolean) => ({
      redaction: 'off',
      keepOriginal: false,
      encryption,
      retention: { recordingsDays: null, chatsDays: null, auditDays: null },
    });
    const tokens: Record<string, string> = {};
    for (const companyId of [plainCompany, encryptedCompany]) {
      await announceCompany(stack, companyId, null);
      tokens[companyId] = await stack.tokenFor('ADMIN', companyId);
    }
    await stack.bus.publish([
      {
        topic: 'earshot.tenant',
        key: encryptedCompany,
        envelope: buildEnvelope({
          type: 'company.policies_changed',
          companyId: encryptedCompany,
          actor: SYSTEM_ACTOR,
          data: { id: encryptedCompany, before: policies(false), after: policies(true) },
        } as never),
      },
    ]);
    await stack.settle();
    const companyOf = (encrypted: boolean) => (encrypted ? encryptedCompany : plainCompany);
    const as = (encrypted: boolean) => ({
      authorization: `Bearer ${tokens[companyOf(encrypted)]}`,
      'x-requested-with': 'XMLHttpRequest',
    });
    // The multipart body made once, sent whole by fetch (over the socket in pieces, as a browser's).
    const upload = uploadRequest(wav, 'call.wav');
    const body = await drainToBuffer(upload.payload);
    const paths: Record<string, string> = {};
    const uploads = await alternate(UPLOADS, async (encrypted) => {
      const res = await fetch(`${base}${upload.url}`, {
        method: 'POST',
        headers: { ...upload.headers, ...as(encrypted) },
        body,
      });
      const answer = await res.text();
      if (res.status !== 201) throw new Error(`upload: ${res.status} ${answer}`);
      const path = (JSON.parse(answer) as { path: string }).path;
      paths[companyOf(encrypted)] = path;
      return join(stack.dataDir, 'objects', path);
    });
    const nextOffset = offsetsPerSide(offsets);
    const ranges = await alternate(RANGES, async (encrypted) => {
      const start = nextOffset(encrypted);
      const res = await fetch(`${base}/api/uploads/${paths[companyOf(encrypted)]}`, {
        headers: { ...as(encrypted), range: `bytes=${start}-${start + RANGE_BYTES - 1}` },
      });
      const got = (await res.arrayBuffer()).byteLength;
      if (res.status !== 206 || got !== RANGE_BYTES) throw new Error(`range: ${res.status}`);
    });
    console.log(
      `HTTP upload of ${UPLOADS} × ${SIZE / MiB} MiB: plain ${uploads.plain.toFixed(0)} ms, encrypted ${uploads.encrypted.toFixed(0)} ms: ${ratio(uploads)}×`,
    );
    console.log(
      `HTTP ${RANGES} Range requests of ${RANGE_BYTES / 1024} KiB: plain ${(ranges.plain / RANGES).toFixed(2)} ms each, encrypted ${(ranges.encrypted / RANGES).toFixed(2)} ms each: ${ratio(ranges)}×`,
    );
  } finally {
    await stack.close();
  }
}
