import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A speech-to-text server on loopback that speaks OpenAI's `/v1/audio/transcriptions`
 * (`verbose_json` with word times), standing for the remote GPU server workers of a real
 * deployment call: each call takes `serviceMs` of the server's time and next to nothing of the
 * worker's. That is what lets the scaling scenario show a backlog drain faster with each worker on
 * a 2-core machine, where a local decoder per worker would only share the same two cores.
 *
 * While the gate is closed (`hold`) calls are taken but not answered: the scenario holds the
 * workers' calls while another worker starts, so that a phase of k workers is measured from the
 * moment all k are busy, whatever the machine's speed. Only the time the gate is open counts
 * towards a call's `serviceMs`.
 */
export class SpeechServer {
  /** Calls taken and not answered yet. */
  inFlight = 0;
  /** The most calls in flight at once since the last `resetPeak()`. */
  peak = 0;
  /** Calls answered (one per channel of a recording: the backlog's calls are shorter than a piece). */
  answered = 0;
  private open = true;
  private opened: Promise<void> = Promise.resolve();
  private reopen: () => void = () => undefined;
  private readonly server: Server;

  private constructor(private readonly serviceMs: number) {
    this.server = createServer((request, response) => {
      request.resume();
      request.on('end', () => void this.answer(request.method, request.url, response));
    });
  }

  static async start(serviceMs: number): Promise<SpeechServer> {
    const speech = new SpeechServer(serviceMs);
    await new Promise<void>((resolve) => speech.server.listen(0, '127.0.0.1', resolve));
    return speech;
  }

  /** Base URL as OpenAI clients take it. */
  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  hold(): void {
    if (!this.open) return;
    this.open = false;
    this.opened = new Promise((resolve) => (this.reopen = resolve));
  }

  release(): void {
    this.open = true;
    this.reopen();
  }

  resetPeak(): void {
    this.peak = this.inFlight;
  }

  close(): Promise<void> {
    this.release();
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async answer(method: string | undefined, url: string | undefined, response: ServerResponse) {
    if (method !== 'POST' || url !== '/v1/audio/transcriptions') {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: `no route ${method} ${url}` } }));
      return;
    }
    this.inFlight += 1;
    this.peak = Math.max(this.peak, this.inFlight);
    // The service time runs only while the gate is open: a hold pauses every call under way.
    let left = this.serviceMs;
    while (left > 0) {
      await this.opened;
      const from = Date.now();
      const step = Math.min(left, 100);
      await new Promise((resolve) => setTimeout(resolve, step));
      if (this.open) left -= Math.min(step, Date.now() - from);
    }
    this.inFlight -= 1;
    this.answered += 1;
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        task: 'transcribe',
        language: 'english',
        duration: 1,
        text: 'scaled out',
        words: [
          { word: 'scaled', start: 0.1, end: 0.5 },
          { word: 'out', start: 0.6, end: 0.9 },
        ],
        segments: [{ id: 0, start: 0.1, end: 0.9, text: 'scaled out' }],
      }),
    );
  }
}
