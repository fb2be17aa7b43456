// `npm run bench:encryption`: the cost of encryption at rest (issue 25) on the storage path the file
// service uses, on local disk: storing a recording (upload) and reading byte ranges (playback
// seeks, as a browser asks for them), with encryption against the same without (goal ≤ 1.2×).
// Both go through EncryptingStorage (a company with encryption off pays only the header check).
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { EncryptingStorage, LocalDiskStorage } from '@earshot/kit';

const MiB = 1024 * 1024;
const SIZE = Number(process.env.BENCH_MB ?? 64) * MiB;
const UPLOADS = 5;
const RANGES = 400;
const RANGE_BYTES = 256 * 1024;

const root = mkdtempSync(join(tmpdir(), 'earshot-bench-enc-'));
const plainCompany = randomUUID();
const encryptedCompany = randomUUID();
const key = randomBytes(32);
const storage = new EncryptingStorage(new LocalDiskStorage(root), {
  encrypts: async (companyId) => companyId === encryptedCompany,
  dataKey: async (companyId) => (companyId === encryptedCompany ? key : null),
});
const data = randomBytes(SIZE);

/** The recording in 64 KiB pieces, as a multipart upload arrives. */
const pieces = () => Readable.from((function* () {
  for (let at = 0; at < data.length; at += 64 * 1024) yield data.subarray(at, at + 64 * 1024);
})());

async function drain(stream: Readable): Promise<number> {
  let n = 0;
  for await (const chunk of stream) n += (chunk as Buffer).length;
  return n;
}

async function timeUploads(companyId: string): Promise<{ ms: number; keys: string[] }> {
  const keys: string[] = [];
  const started = performance.now();
  for (let i = 0; i < UPLOADS; i++) {
    const objectKey = `${companyId}/${randomUUID()}`;
    await storage.put(objectKey, pieces(), { contentType: 'audio/wav' });
    keys.push(objectKey);
  }
  return { ms: performance.now() - started, keys };
}

async function timeRanges(objectKey: string, offsets: number[]): Promise<number> {
  const started = performance.now();
  for (const start of offsets) {
    const got = await drain(await storage.get(objectKey, { start, end: start + RANGE_BYTES - 1 }));
    if (got !== RANGE_BYTES) throw new Error(`range of ${got} bytes`);
  }
  return performance.now() - started;
}

try {
  const offsets = Array.from({ length: RANGES }, () => Math.floor(Math.random() * (SIZE - RANGE_BYTES)));
  // One warm-up round each, so neither side pays the first file system and JIT costs.
  await timeUploads(plainCompany);
  await timeUploads(encryptedCompany);
  const plain = await timeUploads(plainCompany);
  const encrypted = await timeUploads(encryptedCompany);
  await timeRanges(plain.keys[0]!, offsets.slice(0, 50));
  await timeRanges(encrypted.keys[0]!, offsets.slice(0, 50));
  const plainRanges = await timeRanges(plain.keys[0]!, offsets);
  const encryptedRanges = await timeRanges(encrypted.keys[0]!, offsets);
  const mbps = (ms: number) => ((SIZE * UPLOADS) / MiB / (ms / 1000)).toFixed(0);
  console.log(`upload of ${UPLOADS} × ${SIZE / MiB} MiB: plain ${plain.ms.toFixed(0)} ms (${mbps(plain.ms)} MiB/s), encrypted ${encrypted.ms.toFixed(0)} ms (${mbps(encrypted.ms)} MiB/s): ${(encrypted.ms / plain.ms).toFixed(2)}×`);
  console.log(`${RANGES} Range reads of ${RANGE_BYTES / 1024} KiB: plain ${(plainRanges / RANGES).toFixed(2)} ms each, encrypted ${(encryptedRanges / RANGES).toFixed(2)} ms each: ${(encryptedRanges / plainRanges).toFixed(2)}×`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
