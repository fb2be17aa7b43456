import { NodeSDK } from '@opentelemetry/sdk-node';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';

/** Tracing is on only when an OTLP endpoint is configured; otherwise nothing is loaded or sent. */
export async function startTelemetry(endpoint: string | undefined, serviceName: string): Promise<() => Promise<void>> {
  if (!endpoint) return async () => undefined;
  const sdk = new NodeSDK({
    serviceName,
    traceExporter: new OTLPTraceExporter({ url: `${endpoint.replace(/\/$/, '')}/v1/traces` }),
    instrumentations: [new HttpInstrumentation()],
  });
  sdk.start();
  return () => sdk.shutdown();
}
