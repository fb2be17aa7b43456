/**
 * Tracing is on only when an OTLP endpoint is configured; otherwise nothing is loaded or sent (the
 * SDK and its exporter are imported here, not at the top: about 20 MB of heap in every process).
 */
export async function startTelemetry(endpoint: string | undefined, serviceName: string): Promise<() => Promise<void>> {
  if (!endpoint) return async () => undefined;
  const [{ NodeSDK }, { OTLPTraceExporter }, { HttpInstrumentation }] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/instrumentation-http'),
  ]);
  const sdk = new NodeSDK({
    serviceName,
    traceExporter: new OTLPTraceExporter({ url: `${endpoint.replace(/\/$/, '')}/v1/traces` }),
    instrumentations: [new HttpInstrumentation()],
  });
  sdk.start();
  return () => sdk.shutdown();
}
