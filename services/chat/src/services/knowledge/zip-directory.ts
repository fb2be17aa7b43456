import { inflateRawSync } from 'node:zlib';
import { ExtractionFailure, MAX_ZIP_ENTRIES, type ExtractionLimits } from './limits';

/** A zip entry as its central directory describes it. */
export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

const EOCD = 0x06054b50;
const EOCD64_LOCATOR = 0x07064b50;
const EOCD64 = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const ZIP64_EXTRA = 0x0001;
const STORED = 0;
const DEFLATED = 8;
/** Entries smaller than this are not held to the ratio (a tiny XML part compresses well). */
const RATIO_FLOOR_BYTES = 1024 * 1024;

const unreadable = () => new ExtractionFailure({ kind: 'unreadable' });

function need(data: Buffer, offset: number, length: number): void {
  if (offset < 0 || offset + length > data.length) throw unreadable();
}

/** Sizes and offset a ZIP64 entry keeps in its extra field instead of its 0xFFFFFFFF fields. */
function zip64Fields(extra: Buffer, entry: ZipEntry): void {
  for (let at = 0; at + 4 <= extra.length;) {
    const id = extra.readUInt16LE(at);
    const size = extra.readUInt16LE(at + 2);
    let field = at + 4;
    if (id === ZIP64_EXTRA) {
      const next = () => {
        if (field + 8 > at + 4 + size || field + 8 > extra.length) throw unreadable();
        const value = Number(extra.readBigUInt64LE(field));
        field += 8;
        return value;
      };
      if (entry.uncompressedSize === 0xffffffff) entry.uncompressedSize = next();
      if (entry.compressedSize === 0xffffffff) entry.compressedSize = next();
      if (entry.localHeaderOffset === 0xffffffff) entry.localHeaderOffset = next();
      return;
    }
    at += 4 + size;
  }
}

/**
 * The entries of a zip file from its central directory (the end-of-central-directory record, ZIP64
 * included), without inflating anything. A file that is not a well-formed zip is unreadable.
 */
export function readZipDirectory(data: Buffer): ZipEntry[] {
  // The record is 22 bytes, followed by a comment of at most 65,535.
  let end = -1;
  for (let at = data.length - 22; at >= Math.max(0, data.length - 22 - 0xffff); at--) {
    if (data.readUInt32LE(at) === EOCD) {
      end = at;
      break;
    }
  }
  if (end < 0) throw unreadable();
  let count = data.readUInt16LE(end + 10);
  let offset = data.readUInt32LE(end + 16);
  if (count === 0xffff || offset === 0xffffffff) {
    const locator = end - 20;
    need(data, locator, 20);
    if (data.readUInt32LE(locator) !== EOCD64_LOCATOR) throw unreadable();
    const record = Number(data.readBigUInt64LE(locator + 8));
    need(data, record, 56);
    if (data.readUInt32LE(record) !== EOCD64) throw unreadable();
    count = Number(data.readBigUInt64LE(record + 32));
    offset = Number(data.readBigUInt64LE(record + 48));
  }
  if (count > MAX_ZIP_ENTRIES) throw new ExtractionFailure({ kind: 'entries', entries: count });
  const entries: ZipEntry[] = [];
  for (let i = 0, at = offset; i < count; i++) {
    need(data, at, 46);
    if (data.readUInt32LE(at) !== CENTRAL) throw unreadable();
    const nameLength = data.readUInt16LE(at + 28);
    const extraLength = data.readUInt16LE(at + 30);
    const commentLength = data.readUInt16LE(at + 32);
    need(data, at + 46, nameLength + extraLength + commentLength);
    const entry: ZipEntry = {
      name: data.toString('utf8', at + 46, at + 46 + nameLength),
      method: data.readUInt16LE(at + 10),
      compressedSize: data.readUInt32LE(at + 20),
      uncompressedSize: data.readUInt32LE(at + 24),
      localHeaderOffset: data.readUInt32LE(at + 42),
    };
    zip64Fields(data.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength), entry);
    entries.push(entry);
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** An entry's compressed bytes, found through its local header. */
function compressedBytes(data: Buffer, entry: ZipEntry): Buffer {
  const at = entry.localHeaderOffset;
  need(data, at, 30);
  if (data.readUInt32LE(at) !== LOCAL) throw unreadable();
  const start = at + 30 + data.readUInt16LE(at + 26) + data.readUInt16LE(at + 28);
  need(data, start, entry.compressedSize);
  return data.subarray(start, start + entry.compressedSize);
}

/**
 * Refuses a zip-based file before its parser inflates it: what its central directory says it
 * unpacks to against the limit, then each entry's compression ratio, then (a directory can lie)
 * each entry inflated with its declared size as the most it may produce (more is unreadable). What is inflated here is
 * dropped at once: at most one entry, within the limit, is held at a time.
 */
export function checkZip(data: Buffer, limits: ExtractionLimits): void {
  const entries = readZipDirectory(data);
  const total = entries.reduce((sum, e) => sum + e.uncompressedSize, 0);
  if (total > limits.maxExpandedBytes) throw new ExtractionFailure({ kind: 'expanded', bytes: total });
  for (const entry of entries) {
    if (entry.uncompressedSize < RATIO_FLOOR_BYTES) continue;
    const ratio = entry.uncompressedSize / Math.max(1, entry.compressedSize);
    if (ratio > limits.maxZipRatio) throw new ExtractionFailure({ kind: 'ratio', ratio });
  }
  for (const entry of entries) {
    if (entry.method === STORED) {
      if (entry.compressedSize !== entry.uncompressedSize) throw unreadable();
      continue;
    }
    if (entry.method !== DEFLATED) throw unreadable();
    let inflated: Buffer;
    try {
      inflated = inflateRawSync(compressedBytes(data, entry), { maxOutputLength: Math.max(1, entry.uncompressedSize) });
    } catch (error) {
      // More than its directory said: a corrupt file, or one built to slip past the check above.
      if (error instanceof ExtractionFailure) throw error;
      throw unreadable();
    }
    if (inflated.length !== entry.uncompressedSize) throw unreadable();
  }
}
