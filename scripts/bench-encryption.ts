// `npm run bench:encryption`: the cost of encryption at rest (issue 25) on the storage path the file
// service uses, on local disk: storing a recording (upload) and reading byte ranges (playback
// seeks, as a browser asks for them), with encryption against the same without (goal ≤ 1.2×).
// Both go through EncryptingStorage (a company with encryption off pays only the header check).
// Then the same through the file service's HTTP routes (Fastify inject: multipart parsing, type
// sniffing, the database row, the Range answer), which is what a browser sees.
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
  console.log(`storage upload of ${UPLOADS} × ${SIZE / MiB} MiB: plain ${plain.ms.toFixed(0)} ms (${mbps(plain.ms)} MiB/s), encrypted ${encrypted.ms.toFixed(0)} ms (${mbps(encrypted.ms)} MiB/s): ${(encrypted.ms / plain.ms).toFixed(2)}×`);
  console.log(`storage ${RANGES} Range reads of ${RANGE_BYTES / 1024} KiB: plain ${(plainRanges / RANGES).toFixed(2)} ms each, encrypted ${(encryptedRanges / RANGES).toFixed(2)} ms each: ${(encryptedRanges / plainRanges).toFixed(2)}×`);
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
    const uploadAs = async (companyId: string) => {
      const started = performance.now();
      let path = '';
      for (let i = 0; i < UPLOADS; i++) {
        const res = await stack.as(tokens[companyId]!, uploadRequest(wav, 'call.wav'));
        if (res.statusCode !== 201) throw new Error(`upload: ${res.statusCode} ${res.body}`);
        path = res.json().path;
      }
      return { ms: performance.now() - started, path };
    };
    const rangesAs = async (companyId: string, path: string, list: number[]) => {
      const started = performance.now();
      for (const start of list) {
        const res = await stack.as(tokens[companyId]!, { method: 'GET', url: `/api/uploads/${path}`, headers: { range: `bytes=${start}-${start + RANGE_BYTES - 1}` } });
        if (res.statusCode !== 206 || res.rawPayload.length !== RANGE_BYTES) throw new Error(`range: ${res.statusCode}`);
      }
      return performance.now() - started;
    };
    await uploadAs(plainCompany);
    await uploadAs(encryptedCompany);
    const plain = await uploadAs(plainCompany);
    const encrypted = await uploadAs(encryptedCompany);
    await rangesAs(plainCompany, plain.path, offsets.slice(0, 50));
    await rangesAs(encryptedCompany, encrypted.path, offsets.slice(0, 50));
    const plainRanges = await rangesAs(plainCompany, plain.path, offsets);
    const encryptedRanges = await rangesAs(encryptedCompany, encrypted.path, offsets);
    console.log(`HTTP upload of ${UPLOADS} × ${SIZE / MiB} MiB: plain ${plain.ms.toFixed(0)} ms, encrypted ${encrypted.ms.toFixed(0)} ms: ${(encrypted.ms / plain.ms).toFixed(2)}×`);
    console.log(`HTTP ${RANGES} Range requests of ${RANGE_BYTES / 1024} KiB: plain ${(plainRanges / RANGES).toFixed(2)} ms each, encrypted ${(encryptedRanges / RANGES).toFixed(2)} ms each: ${(encryptedRanges / plainRanges).toFixed(2)}×`);
  } finally {
    await stack.close();
  }
}
