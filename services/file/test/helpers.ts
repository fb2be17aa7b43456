import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request as httpRequest } from 'node:http';
import { Readable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import type { Envelope } from '@earshot/contracts';
import { buildEnvelope } from '@earshot/kit';
import type { TestStack } from '@earshot/kit/testing';

export type Fixture = 'wav' | 'mp3' | 'mp3-bare' | 'ogg' | 'opus' | 'flac' | 'm4a' | 'webm' | 'aac';

const FFMPEG_ARGS: Record<Exclude<Fixture, 'wav'>, string[]> = {
  mp3: ['-f', 'mp3'],
  'mp3-bare': ['-id3v2_version', '0', '-write_xing', '0', '-f', 'mp3'],
  ogg: ['-c:a', 'libvorbis', '-f', 'ogg'],
  opus: ['-c:a', 'libopus', '-f', 'ogg'],
  flac: ['-f', 'flac'],
  m4a: ['-c:a', 'aac', '-f', 'ipod'],
  webm: ['-c:a', 'libopus', '-f', 'webm'],
  aac: ['-c:a', 'aac', '-f', 'adts'],
};

/** Real speech, made on the spot: espeak-ng speaks a sentence to WAV, ffmpeg encodes the rest. */
export function makeAudioFixtures(text = 'hello from the upload test, one two three'): Record<Fixture, Buffer> {
  const dir = mkdtempSync(join(tmpdir(), 'earshot-audio-'));
  const wav = join(dir, 'speech.wav');
  execFileSync('espeak-ng', ['-w', wav, text]);
  const out = { wav: readFileSync(wav) } as Record<Fixture, Buffer>;
  for (const [name, args] of Object.entries(FFMPEG_ARGS) as [Exclude<Fixture, 'wav'>, string[]][]) {
    const target = join(dir, `speech.${name}`);
    execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-i', wav, ...args, target]);
    out[name] = readFileSync(target);
  }
  return out;
}

/** A mono 16-bit WAV header for `dataBytes` of samples (silence when followed by zeros). */
export function wavHeader(dataBytes: number, sampleRate = 16_000): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(Math.min(0xffffffff, 36 + dataBytes), 4);
  header.write('WAVE', 8, 'latin1');
  header.write('fmt ', 12, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(Math.min(0xffffffff, dataBytes), 40);
  return header;
}

export interface Part {
  name: string;
  value: Buffer | string | Readable;
  filename?: string;
  contentType?: string;
}

const CRLF = '\r\n';

/** A multipart/form-data body as a stream (files are never concatenated into one buffer). */
export function multipart(parts: Part[]): { payload: Readable; headers: Record<string, string> } {
  const boundary = `----earshot${randomUUID().replace(/-/g, '')}`;
  async function* body() {
    for (const part of parts) {
      const disposition = `form-data; name="${part.name}"${part.filename !== undefined ? `; filename="${part.filename}"` : ''}`;
      const type =
        part.filename !== undefined ? `Content-Type: ${part.contentType ?? 'application/octet-stream'}${CRLF}` : '';
      yield Buffer.from(`--${boundary}${CRLF}Content-Disposition: ${disposition}${CRLF}${type}${CRLF}`);
      if (part.value instanceof Readable) yield* part.value;
      else yield Buffer.from(part.value);
      yield Buffer.from(CRLF);
    }
    yield Buffer.from(`--${boundary}--${CRLF}`);
  }
  return { payload: Readable.from(body()), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** One audio file (and optional fields) as POST /api/files/upload options for stack.as(). */
export function uploadRequest(
  data: Buffer | Readable,
  filename: string,
  fields: Record<string, string> = {},
  url = '/api/files/upload',
) {
  const { payload, headers } = multipart([
    ...Object.entries(fields).map(([name, value]) => ({ name, value })),
    { name: 'file', value: data, filename, contentType: 'audio/mpeg' },
  ]);
  return { method: 'POST' as const, url, payload, headers };
}

/** Every file under `dir` (recursively), relative paths: to prove nothing was left behind. */
export function filesUnder(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path).map((p) => join(name, p)) : [name];
  });
}

/** Tells the file service about a company the way the tenant service does: a company.created event (of `companyType`, when given). */
export async function announceCompany(
  stack: TestStack,
  companyId: string,
  maxStorage: number | null,
  type = 'company.created',
  companyType?: string,
): Promise<Envelope> {
  const envelope = buildEnvelope({
    type,
    companyId,
    actor: { type: 'system', id: null },
    data: {
      id: companyId,
      after: {
        name: 'Acme',
        code: 'ACME',
        domain: `d${companyId.slice(0, 8)}`,
        status: 'active',
        maxUsers: 10,
        maxStorage,
        ...(companyType ? { type: companyType } : {}),
      },
    },
  });
  await stack.bus.publish([{ topic: 'earshot.tenant', key: companyId, envelope }]);
  await stack.settle();
  return envelope;
}

/** Publishes an event of the transcription service. */
export async function transcriptionEvent(
  stack: TestStack,
  type: string,
  companyId: string,
  data: Record<string, unknown>,
): Promise<Envelope> {
  const envelope = buildEnvelope({ type, companyId, actor: { type: 'system', id: null }, data });
  await stack.bus.publish([{ topic: 'earshot.transcription', key: companyId, envelope }]);
  await stack.settle();
  return envelope;
}

/**
 * Sends a multipart upload of a WAV of `total` bytes over real HTTP, writing as the socket allows,
 * and stops writing once the server answers. Reports how much had been sent by then.
 */
export function streamingUpload(
  url: string,
  token: string,
  total: number,
): Promise<{ status: number; body: string; sentWhenAnswered: number }> {
  const boundary = `----earshot${randomUUID().replace(/-/g, '')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.wav"\r\nContent-Type: audio/wav\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const chunk = Buffer.alloc(256 * 1024);
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const request = httpRequest(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(head.length + total + tail.length),
      },
    });
    request.on('response', (response) => {
      answered = true;
      const sentWhenAnswered = sent;
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (text: string) => (body += text));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body, sentWhenAnswered }));
    });
    // The server may close the socket on us mid-body: that is the point.
    request.on('error', (error) => (answered ? undefined : reject(error)));
    request.write(head);
    request.write(wavHeader(total));
    sent = 44;
    const pump = () => {
      while (!answered && sent < total) {
        const piece = chunk.subarray(0, Math.min(chunk.length, total - sent));
        sent += piece.length;
        if (!request.write(piece)) return void request.once('drain', pump);
      }
      if (!answered) request.end(tail);
    };
    pump();
  });
}
