import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { SpeechModelEntry } from '@earshot/contracts';

export interface MirrorRequest {
  path: string;
  range: string | undefined;
}

/**
 * A loopback model mirror (what SPEECH_MODELS_URL points at in tests): serves files with Range
 * support, records every request, can cut a response after some bytes (a dropped connection), and
 * in `gated` mode sends each chunk only when the test calls `release()` — so a progress bar can be
 * watched moving without any timing.
 */
export class ModelMirror {
  readonly files = new Map<string, Buffer>();
  readonly requests: MirrorRequest[] = [];
  /** The next response for a path ends the connection after this many bytes of body. */
  readonly cutAfter = new Map<string, number>();
  /** Paths answered with this redirect. */
  readonly redirects = new Map<string, string>();
  /** Paths sent chunk by chunk, each chunk on `release()`. */
  readonly gated = new Set<string>();
  chunkBytes = 256 * 1024;
  private releases = 0;
  private waiters: (() => void)[] = [];
  private readonly server: Server;
  url = '';

  constructor() {
    this.server = createServer(
      (request, response) =>
        void this.answer(request.url ?? '/', request.headers.range, response).catch(() => response.destroy()),
    );
  }

  async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Lets gated responses send `chunks` more chunks. */
  release(chunks = 1): void {
    this.releases += chunks;
    for (const wake of this.waiters.splice(0)) wake();
  }

  async close(): Promise<void> {
    this.release(Number.MAX_SAFE_INTEGER / 2);
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private async nextRelease(): Promise<void> {
    while (this.releases <= 0) await new Promise<void>((resolve) => this.waiters.push(resolve));
    this.releases--;
  }

  private async answer(
    url: string,
    range: string | undefined,
    response: import('node:http').ServerResponse,
  ): Promise<void> {
    const path = decodeURIComponent(url.split('?')[0]!.slice(1));
    this.requests.push({ path, range });
    const redirect = this.redirects.get(path);
    if (redirect) {
      response.writeHead(302, { location: redirect }).end();
      return;
    }
    const file = this.files.get(path);
    if (!file) {
      response.writeHead(404).end('not found');
      return;
    }
    const from = range ? Number(/^bytes=(\d+)-$/.exec(range)?.[1] ?? 0) : 0;
    if (from >= file.length) {
      response.writeHead(416, { 'content-range': `bytes */${file.length}` }).end();
      return;
    }
    const body = file.subarray(from);
    response.writeHead(range ? 206 : 200, {
      'content-length': String(body.length),
      'content-type': 'application/octet-stream',
      ...(range ? { 'content-range': `bytes ${from}-${file.length - 1}/${file.length}` } : {}),
    });
    const cut = this.cutAfter.get(path);
    this.cutAfter.delete(path);
    for (let at = 0; at < body.length; at += this.chunkBytes) {
      if (this.gated.has(path)) await this.nextRelease();
      const chunk = body.subarray(at, Math.min(body.length, at + this.chunkBytes));
      if (cut !== undefined && at + chunk.length > cut) {
        // The bytes before the cut leave first, then the connection drops.
        await new Promise<void>((resolve) => response.write(chunk.subarray(0, cut - at), () => resolve()));
        response.destroy();
        return;
      }
      if (!response.write(chunk)) await new Promise((resolve) => response.once('drain', resolve));
    }
    response.end();
  }
}

export const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** A file of random bytes standing in for a model (only its bytes and hash matter to the manager). */
export const fakeModel = (bytes: number) => randomBytes(bytes);

/** Writes a catalogue for SPEECH_MODELS_CATALOGUE and answers its path. */
export function writeCatalogue(dir: string, entries: SpeechModelEntry[]): string {
  const path = join(dir, 'catalogue.json');
  writeFileSync(path, JSON.stringify(entries));
  return path;
}
