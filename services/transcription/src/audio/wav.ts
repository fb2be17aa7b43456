import { createReadStream, createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';

/** Where the samples of a PCM WAV file are and what they are. */
export interface WavInfo {
  path: string;
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  dataOffset: number;
  dataBytes: number;
  /** Seconds of audio. */
  duration: number;
}

/** Reads a RIFF/WAVE header (skipping chunks such as LIST) up to the data chunk. */
export async function readWavInfo(path: string): Promise<WavInfo> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const head = Buffer.alloc(Math.min(size, 64 * 1024));
    await handle.read(head, 0, head.length, 0);
    if (head.toString('ascii', 0, 4) !== 'RIFF' || head.toString('ascii', 8, 12) !== 'WAVE')
      throw new Error(`${path} is not a WAV file`);
    let offset = 12;
    let format: { channels: number; sampleRate: number; bits: number } | null = null;
    while (offset + 8 <= head.length) {
      const id = head.toString('ascii', offset, offset + 4);
      const length = head.readUInt32LE(offset + 4);
      if (id === 'fmt ') {
        format = {
          channels: head.readUInt16LE(offset + 10),
          sampleRate: head.readUInt32LE(offset + 12),
          bits: head.readUInt16LE(offset + 22),
        };
      } else if (id === 'data') {
        if (!format) break;
        const dataOffset = offset + 8;
        // A streamed writer may leave the size unset (0 or 0xFFFFFFFF): the rest of the file is data.
        const dataBytes =
          length === 0 || length === 0xffffffff || dataOffset + length > size ? size - dataOffset : length;
        const bytesPerSecond = format.sampleRate * format.channels * (format.bits / 8);
        return {
          path,
          sampleRate: format.sampleRate,
          channels: format.channels,
          bitsPerSample: format.bits,
          dataOffset,
          dataBytes,
          duration: dataBytes / bytesPerSecond,
        };
      }
      offset += 8 + length + (length % 2);
    }
    throw new Error(`${path} has no readable WAV data chunk`);
  } finally {
    await handle.close();
  }
}

/** A canonical 44-byte header for 16-bit PCM. */
export function wavHeader(dataBytes: number, sampleRate: number, channels = 1): Buffer {
  const header = Buffer.alloc(44);
  const blockAlign = channels * 2;
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * blockAlign, 28);
  header.writeUInt16LE(blockAlign, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(dataBytes, 40);
  return header;
}

/** Copies the seconds [start, end) of a 16-bit mono WAV into a WAV file of its own (no re-encoding). */
export async function writeWavSlice(source: WavInfo, start: number, end: number, target: string): Promise<void> {
  const bytesPerSecond = source.sampleRate * 2;
  const from = Math.max(0, Math.floor(start * source.sampleRate) * 2);
  const to = Math.min(source.dataBytes, Math.floor(end * source.sampleRate) * 2);
  const length = Math.max(0, to - from);
  const data =
    length > 0
      ? createReadStream(source.path, {
          start: source.dataOffset + from,
          end: source.dataOffset + from + length - 1,
          highWaterMark: bytesPerSecond,
        })
      : Readable.from([]);
  async function* withHeader() {
    yield wavHeader(length, source.sampleRate);
    for await (const chunk of data) yield chunk as Buffer;
  }
  await pipeline(Readable.from(withHeader()), createWriteStream(target));
}
