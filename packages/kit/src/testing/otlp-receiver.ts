import { createServer, type IncomingMessage } from 'node:http';
import { startTelemetry } from '../telemetry';
import type { AddressInfo } from 'node:net';

/** A span as an OTLP/JSON export carries it, its attributes (resource ones too) flattened. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, string | number | boolean>;
  resource: Record<string, string | number | boolean>;
}

export interface ReceivedRequest {
  path: string;
  contentType: string;
  body: Buffer;
}

export interface OtlpReceiver {
  /** The OTLP endpoint (OTEL_EXPORTER_OTLP_ENDPOINT): http://127.0.0.1:port. */
  endpoint: string;
  requests: ReceivedRequest[];
  /** Spans of the http/json exports received so far. */
  spans: ReceivedSpan[];
  /** Down: every connection is closed at once, as a collector that is not there. */
  setDown(down: boolean): void;
  /** Resolves once `check` holds for what arrived (checked on every export). */
  until<T>(check: (spans: ReceivedSpan[]) => T | undefined | false): Promise<T>;
  close(): Promise<void>;
}

type AnyValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };

function flatten(list: { key: string; value: AnyValue }[] = []): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const { key, value } of list) {
    const v = value.stringValue ?? value.boolValue ?? value.doubleValue ?? value.intValue;
    if (v !== undefined) out[key] = typeof v === 'string' && value.intValue !== undefined ? Number(v) : v;
  }
  return out;
}

async function read(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A tiny OTLP/HTTP collector on loopback for tests: keeps what it is sent, answers success. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const requests: ReceivedRequest[] = [];
  const spans: ReceivedSpan[] = [];
  const waiters: (() => void)[] = [];
  let down = false;
  const server = createServer((request, response) => {
    void read(request).then((body) => {
      const contentType = request.headers['content-type'] ?? '';
      requests.push({ path: request.url ?? '', contentType, body });
      if (contentType.startsWith('application/json')) {
        const parsed = JSON.parse(body.toString()) as {
          resourceSpans?: {
            resource?: { attributes?: { key: string; value: AnyValue }[] };
            scopeSpans?: {
              spans?: (Omit<ReceivedSpan, 'attributes' | 'resource'> & {
                attributes?: { key: string; value: AnyValue }[];
              })[];
            }[];
          }[];
        };
        for (const rs of parsed.resourceSpans ?? []) {
          const resource = flatten(rs.resource?.attributes);
          for (const ss of rs.scopeSpans ?? [])
            for (const span of ss.spans ?? [])
              spans.push({
                ...span,
                parentSpanId: span.parentSpanId ?? '',
                attributes: flatten(span.attributes),
                resource,
              });
        }
      }
      response
        .writeHead(200, { 'content-type': contentType || 'application/json' })
        .end(contentType.startsWith('application/json') ? '{}' : undefined);
      waiters.splice(0).forEach((wake) => wake());
    });
  });
  server.on('connection', (socket) => {
    if (down) socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests,
    spans,
    setDown(value) {
      down = value;
      // Kept-alive connections too: the exporter would otherwise go on sending through them.
      if (down) server.closeAllConnections();
    },
    async until(check) {
      for (;;) {
        const found = check(spans);
        if (found) return found;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Tracing on in this test process, exporting OTLP/JSON in quick batches to a new receiver;
 * `stop` flushes, closes the receiver and leaves the environment as it was.
 */
export async function traceToReceiver(
  serviceName: string,
  service?: string,
): Promise<{ receiver: OtlpReceiver; stop(): Promise<void> }> {
  const receiver = await startOtlpReceiver();
  process.env.OTEL_EXPORTER_OTLP_PROTOCOL = 'http/json';
  process.env.OTEL_BSP_SCHEDULE_DELAY = '50';
  const stopTelemetry = await startTelemetry(receiver.endpoint, serviceName, service);
  return {
    receiver,
    async stop() {
      await stopTelemetry();
      await receiver.close();
      delete process.env.OTEL_EXPORTER_OTLP_PROTOCOL;
      delete process.env.OTEL_BSP_SCHEDULE_DELAY;
    },
  };
}
