import { ConfigError, HeldStream, createLogger, loadConfig, startTelemetry } from '@earshot/kit';
import { allInOneConfigSchema, createAllInOne } from './compose';

// `npm start`: everything in one process, nothing to install but Node.
// Log lines wait until the banner is out, so a newcomer sees the URL and passwords first.
const held = new HeldStream(process.stdout);
try {
  const settings = loadConfig(allInOneConfigSchema) as { LOG_LEVEL: string; NODE_ENV: string };
  const logger = createLogger(settings.LOG_LEVEL, 'earshot', {
    pretty: settings.NODE_ENV === 'development',
    stream: held,
  });
  const stopTelemetry = await startTelemetry(process.env.OTEL_EXPORTER_OTLP_ENDPOINT, 'earshot', 'gateway');
  const earshot = await createAllInOne({ logger });
  const { config, app, demo } = earshot;
  await app.listen({ host: config.HOST, port: config.PORT });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const url = config.PUBLIC_URL ?? `http://localhost:${port}`;
  const lines = [
    '',
    `Earshot is running at ${url}`,
    `  API docs:      ${url}/api/docs`,
    `  Demo company:  http://acme.localhost:${port} (or sign in at ${url}: the e-mail finds its company)`,
  ];
  if (demo) {
    lines.push('  Demo accounts (password shown once, keep it):');
    for (const user of demo.users) lines.push(`    ${user.role.padEnd(7)} ${user.email}`);
    lines.push(`    password: ${demo.password}`);
  }
  lines.push('  Sign in as the platform administrator with ADMIN_EMAIL (default admin@earshot.local).');
  // Without a mail server nothing is dropped: say where the messages go instead.
  lines.push(
    process.env.SMTP_URL
      ? '  Mail:          sent through SMTP_URL'
      : `  Mail:          no SMTP_URL, so each message is written to ${config.DATA_DIR}/mail and listed at ${url}/email-templates (Outgoing mail)`,
    '',
  );
  console.log(lines.join('\n'));
  held.release();
  const shutdown = async () => {
    await earshot.close();
    await stopTelemetry();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown());
  process.once('SIGINT', () => void shutdown());
} catch (error) {
  held.release();
  if (error instanceof ConfigError) {
    console.error(`Earshot cannot start. ${error.message}`);
    process.exit(1);
  }
  throw error;
}
