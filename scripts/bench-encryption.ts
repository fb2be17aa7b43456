// `npm run bench:encryption`: the cost of encryption at rest (issue 25) on the storage path the file
// service uses, on local disk: storing a recording (upload) and reading byte ranges (playback
// seeks, as a browser asks for them), with encryption against the same without (goal ≤ 1.2×).
// Both go through EncryptingStorage (a company that never had a key is read straight through).
// Then the same through the file service's HTTP routes (Fastify inject: multipart parsing, type
// sniffing, the database row, the Range answer), which is what a browser sees.
//
// Plain and encrypted trials alternate (plain, encrypted, encrypted, plain, ...) and the disk's
// dirty pages are flushed before each upload, so neither side is charged for the other's writeback
// or for a moment when the shared machine was busier: the ratio compares like with like.
import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { SYSTEM_ACTOR } from '@earshot/contracts';
import { buildEnvelope, EncryptingStorage, LocalDiskStorage } from '@earshot/kit';
import { createTestStack, serveUnmeteredCredits } from '@earshot/kit/testing';
import { fileService } from '../services/file/src';
import { announceCompany, uploadRequest, wavHeader } from '../services/file/test/helpers';

const MiB = 1024 * 1024;
const SIZE = Number(process.env.BENCH_MB ?? 64) * MiB;
const UPLOADS = 6;
const RANGES = 400;
const RANGE_BYTES = 256 * 1024;
const RANGE_ROUNDS = 8;

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
const pieces = () => Readable.from((function* () {
  for (let at = 0; at < data.length; at += 64 * 1024) yield data.subarray(at, at + 64 * 1024);
})());

async function drain(stream: Readable): Promise<number> {
  let n = 0;
  for await (const chunk of stream) n += (chunk as Buffer).length;
  return n;
}

/** Writes back what earlier uploads left in the page cache, so a timed upload pays only for its own. */
function flushDisk(): void {
  try {
    execFileSync('sync');
  } catch {
    // No sync(1) here: the alternation alone evens the sides out.
  }
}

/**
 * Runs `trial` for plain and encrypted `rounds` times each, in ABBA order, and returns the total
 * milliseconds of each side (warm-up first: one trial each, not counted).
 */
async function alternate(rounds: number, trial: (encrypted: boolean) => Promise<void>, flush = false): Promise<{ plain: number; encrypted: number }> {
  await trial(false);
  await trial(true);
  const totals = { plain: 0, encrypted: 0 };
  for (let i = 0; i < rounds; i++) {
    for (const encrypted of i % 2 === 0 ? [false, true] : [true, false]) {
      if (flush) flushDisk();
      const started = performance.now();
      await trial(encrypted);
      totals[encrypted ? 'encrypted' : 'plain'] += performance.now() - started;
    }
  }
  return totals;
}

const ratio = ({ plain, encrypted }: { plain: number; encrypted: number }) => (encrypted / plain).toFixed(2);

try {
  const offsets = Array.from({ length: RANGES }, () => Math.floor(Math.random() * (SIZE - RANGE_BYTES)));
  const stored: Record<'plain' | 'encrypted', string> = { plain: '', encrypted: '' };
  const uploads = await alternate(UPLOADS, async (encrypted) => {
    const objectKey = `${encrypted ? encryptedCompany : plainCompany}/${randomUUID()}`;
    await storage.put(objectKey, pieces(), { contentType: 'audio/wav' });
    stored[encrypted ? 'encrypted' : 'plain'] = objectKey;
  }, true);
  const perRound = RANGES / RANGE_ROUNDS;
  let round = 0;
  const ranges = await alternate(RANGE_ROUNDS, async (encrypted) => {
    const objectKey = stored[encrypted ? 'encrypted' : 'plain'];
    const at = (round++ % RANGE_ROUNDS) * perRound;
    for (const start of offsets.slice(at, at + perRound)) {
      const got = await drain(await storage.get(objectKey, { start, end: start + RANGE_BYTES - 1 }));
      if (got !== RANGE_BYTES) throw new Error(`range of ${got} bytes`);
    }
  });
  const mbps = (ms: number) => ((SIZE * UPLOADS) / MiB / (ms / 1000)).toFixed(0);
  console.log(`storage upload of ${UPLOADS} × ${SIZE / MiB} MiB: plain ${uploads.plain.toFixed(0)} ms (${mbps(uploads.plain)} MiB/s), encrypted ${uploads.encrypted.toFixed(0)} ms (${mbps(uploads.encrypted)} MiB/s): ${ratio(uploads)}×`);
  console.log(`storage ${RANGE_ROUNDS * perRound} Range reads of ${RANGE_BYTES / 1024} KiB: plain ${(ranges.plain / RANGES).toFixed(2)} ms each, encrypted ${(ranges.encrypted / RANGES).toFixed(2)} ms each: ${ratio(ranges)}×`);
  await overHttp(offsets);
} finally {
  rmSync(root, { recursive: true, force: true });
}

async function overHttp(offsets: number[]): Promise<void> {
  const stack = await createTestStack([fileService], { ENCRYPTION_MASTER_KEY: randomBytes(32).toString('hex'), MAX_UPLOAD_BYTES: String(2 * SIZE) });
  try {
    serveUnmeteredCredits(stack.database);
    const wav = Buffer.concat([wavHeader(SIZE - 44), data.subarray(44)]);
    const policies = (encryption: boolean) => ({ redaction: 'off', keepOriginal: false, encryption, retention: { recordingsDays: null, chatsDays: null, auditDays: null } });
    const tokens: Record<string, string> = {};
    for (const companyId of [plainCompany, encryptedCompany]) {
      await announceCompany(stack, companyId, null);
      tokens[companyId] = await stack.tokenFor('ADMIN', companyId);
    }
    await stack.bus.publish([{ topic: 'earshot.tenant', key: encryptedCompany, envelope: buildEnvelope({ type: 'company.policies_changed', companyId: encryptedCompany, actor: SYSTEM_ACTOR, data: { id: encryptedCompany, before: policies(false), after: policies(true) } } as never) }]);
    await stack.settle();
    const companyOf = (encrypted: boolean) => (encrypted ? encryptedCompany : plainCompany);
    const paths: Record<string, string> = {};
    const uploads = await alternate(UPLOADS, async (encrypted) => {
      const res = await stack.as(tokens[companyOf(encrypted)]!, uploadRequest(wav, 'call.wav'));
      if (res.statusCode !== 201) throw new Error(`upload: ${res.statusCode} ${res.body}`);
      paths[companyOf(encrypted)] = res.json().path;
    }, true);
    const perRound = RANGES / RANGE_ROUNDS;
    let round = 0;
    const ranges = await alternate(RANGE_ROUNDS, async (encrypted) => {
      const companyId = companyOf(encrypted);
      const at = (round++ % RANGE_ROUNDS) * perRound;
      for (const start of offsets.slice(at, at + perRound)) {
        const res = await stack.as(tokens[companyId]!, { method: 'GET', url: `/api/uploads/${paths[companyId]}`, headers: { range: `bytes=${start}-${start + RANGE_BYTES - 1}` } });
        if (res.statusCode !== 206 || res.rawPayload.length !== RANGE_BYTES) throw new Error(`range: ${res.statusCode}`);
      }
    });
    console.log(`HTTP upload of ${UPLOADS} × ${SIZE / MiB} MiB: plain ${uploads.plain.toFixed(0)} ms, encrypted ${uploads.encrypted.toFixed(0)} ms: ${ratio(uploads)}×`);
    console.log(`HTTP ${RANGES} Range requests of ${RANGE_BYTES / 1024} KiB: plain ${(ranges.plain / RANGES).toFixed(2)} ms each, encrypted ${(ranges.encrypted / RANGES).toFixed(2)} ms each: ${ratio(ranges)}×`);
  } finally {
    await stack.close();
  }
}
