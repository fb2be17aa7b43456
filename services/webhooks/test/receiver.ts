import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** How the receiver answers one request: a status (and body), or never. */
export type Answer = number | { status: number; body?: string; headers?: Record<string, string> } | 'never';

/**
 * A webhook receiver on loopback, as a company's CRM would run one: it records every request and
 * answers from a script (then 200), so a test can make it fail, redirect or hang.
 */
export class Receiver {
  readonly received: Received[] = [];
  private readonly scripts = new Map<string, Answer[]>();
  private readonly hanging = new Set<ServerResponse>();
  private server!: Server;
  url = '';

  static async start(): Promise<Receiver> {
    const receiver = new Receiver();
    receiver.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        receiver.received.push({
          path: request.url ?? '/',
          headers: request.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        receiver.answer(response, receiver.scripts.get(request.url ?? '/')?.shift() ?? 200);
      });
    });
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    receiver.url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}`;
    return receiver;
  }

  /** The answers to the next requests to `path`, in order. */
  answerWith(path: string, ...answers: Answer[]): void {
    this.scripts.set(path, [...(this.scripts.get(path) ?? []), ...answers]);
  }

  on(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  /**
   * Waits until `count` requests reached `path`. Bounded by a number of short polls, generous for
   * a slow machine; the test then asserts on what arrived, not on how long it took.
   */
  async waitFor(path: string, count: number, polls = 1000): Promise<Received[]> {
    for (let i = 0; i < polls && this.on(path).length < count; i++) await new Promise((r) => setTimeout(r, 20));
    const found = this.on(path);
    if (found.length < count) throw new Error(`${path} received ${found.length} of ${count} deliveries`);
    return found;
  }

  async close(): Promise<void> {
    for (const response of this.hanging) response.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private answer(response: ServerResponse, answer: Answer): void {
    if (answer === 'never') {
      this.hanging.add(response);
      return;
    }
    const { status, body, headers } = typeof answer === 'number' ? { status: answer } : answer;
    response.writeHead(status, headers ?? {});
    response.end(body ?? '');
  }
}

/** What a receiver does with a delivery: verify it with the Standard Webhooks library, then parse it. */
export function verify(
  secret: string,
  delivery: Received,
): { type: string; timestamp: string; data: Record<string, unknown> } {
  const headers = {
    'webhook-id': String(delivery.headers['webhook-id']),
    'webhook-timestamp': String(delivery.headers['webhook-timestamp']),
    'webhook-signature': String(delivery.headers['webhook-signature']),
  };
  return new Webhook(secret).verify(delivery.body, headers) as {
    type: string;
    timestamp: string;
    data: Record<string, unknown>;
  };
}
