import { Writable } from 'node:stream';
import { buildServer, createLogger } from '../src';

// A personal iCalendar feed's address is its credential: the request log keeps the route, never the secret.
test('a feed address is logged without its secret, other addresses whole', async () => {
  let out = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      out += chunk.toString();
      callback();
    },
  });
  const app = buildServer({ logger: createLogger('info', 'log-test', { stream }), logLevel: 'info', name: 'log-test' });
  app.get('/api/calendar/feed/:token', async () => 'feed');
  app.get('/api/tasks', async () => 'tasks');
  await app.inject({ url: '/api/calendar/feed/s3cr3tT0kenValue_abc.ics' });
  await app.inject({ url: '/api/tasks?status=todo' });
  await app.close();
  expect(out).not.toContain('s3cr3tT0kenValue');
  expect(out).toContain('"url":"/api/calendar/feed/[redacted]"');
  expect(out).toContain('"url":"/api/tasks?status=todo"');
});
