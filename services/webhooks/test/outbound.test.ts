import { randomUUID } from 'node:crypto';
import { secretBox } from '@earshot/kit';
import { createTestStack, type TestStack } from '@earshot/kit/testing';
import { webhooksService } from '../src';
import { nextAttempt, RETRY_SCHEDULE_MS } from '../src/services/worker';
import { Sender } from '../src/services/sender';
import { deliver, uploaded } from './helpers';
import { Receiver } from './receiver';

let stack: TestStack;
let receiver: Receiver;
const company = randomUUID();
let admin: string;

beforeAll(async () => {
  // The operator's switch left off: loopback and private addresses are refused.
  stack = await createTestStack([webhooksService], { WEBHOOK_POLL_MS: '20' });
  receiver = await Receiver.start();
  admin = await stack.tokenFor('ADMIN', company);
}, 60_000);
afterAll(async () => {
  await stack.close();
  await receiver.close();
});

test('loopback, private and link-local addresses are refused when saved', async () => {
  for (const url of [
    `${receiver.url}/hook`,
    'http://10.0.0.5/hook',
    'http://[::1]:8080/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://localhost:9/hook',
  ]) {
    const res = await stack.as(admin, {
      method: 'POST',
      url: '/api/webhooks',
      payload: { url, events: ['file.uploaded'] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('body.url');
  }
});

test('an address saved before (or rebound since) is checked again at every delivery: nothing is sent', async () => {
  // Written directly, as if the address had been public when saved.
  const box = secretBox(stack.config, 'webhooks');
  const [row] = await stack.database.query<{ id: string }>(
    `insert into webhooks.endpoints (company_id, url, events, secret) values ($1, $2, '{file.uploaded}', $3) returning id`,
    [company, `${receiver.url}/rebound`, box.seal(`whsec_${Buffer.alloc(32, 7).toString('base64')}`)],
  );
  await deliver(stack, uploaded(company));
  let log: { attempts: number; last_error: string | null } | undefined;
  for (let i = 0; i < 500 && !(log && log.attempts > 0 && log.last_error); i++) {
    [log] = await stack.database.query('select attempts, last_error from webhooks.deliveries where endpoint_id = $1', [
      row!.id,
    ]);
    await new Promise((r) => setTimeout(r, 20));
  }
  expect(log!.last_error).toMatch(/WEBHOOK_ALLOW_PRIVATE_URLS/);
  expect(receiver.on('/rebound')).toHaveLength(0);
});

test('a receiver that never answers holds an attempt no longer than the timeout', async () => {
  receiver.answerWith('/silent', 'never');
  const sender = new Sender({ allowPrivate: true }, 300);
  const outcome = await sender.post(`${receiver.url}/silent`, { 'content-type': 'application/json' }, '{}');
  await sender.close();
  expect(outcome).toMatchObject({ ok: false, statusCode: null, error: 'no answer within 0.3 s' });
  expect(receiver.on('/silent')).toHaveLength(1);
});

test('the retry schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h with ±10 % jitter, scaled; then none', () => {
  const now = 1_000_000;
  expect(RETRY_SCHEDULE_MS.map((_, i) => nextAttempt(i + 1, 1, now, () => 0.5)!.getTime() - now)).toEqual([
    5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
  ]);
  expect(nextAttempt(1, 0.01, now, () => 0.5)!.getTime() - now).toBe(50);
  expect(nextAttempt(2, 1, now, () => 0)!.getTime() - now).toBe(270_000);
  expect(nextAttempt(2, 1, now, () => 1)!.getTime() - now).toBe(330_000);
  expect(nextAttempt(8, 1, now)).toBeNull();
});
