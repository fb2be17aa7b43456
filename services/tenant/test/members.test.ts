import { buildEnvelope } from '@earshot/kit';
import { createTestStack, type TestStack } from '@earshot/kit/testing';
import { tenantService } from '../src';

// The member projection (who belongs to which company, from auth's user events) keeps the newest
// state per user: events that arrive late, older than one already applied, are ignored.
let stack: TestStack;
let host: string;
beforeAll(async () => {
  stack = await createTestStack([tenantService]);
  host = await stack.tokenFor('HOST_ADMIN', null);
}, 60_000);
afterAll(async () => stack.close());

test('a user.updated older than the user.deleted already applied does not bring the member back', async () => {
  const company = (
    await stack.as(host, {
      method: 'POST',
      url: '/api/companies',
      payload: { name: 'Late Ltd', code: 'LATE', domain: 'late' },
    })
  ).json() as { _id: string };
  const userId = crypto.randomUUID();
  const state = { email: 'u@late.test', firstName: 'U', lastName: 'L', role: 'USER' as const, companyId: company._id };
  const actor = { type: 'system' as const, id: null };
  const event = (
    type: 'user.created' | 'user.updated' | 'user.deleted',
    after: typeof state | null,
    occurredAt: string,
  ) => ({
    ...buildEnvelope({ type, companyId: company._id, actor, data: { id: userId, before: state, after } }),
    occurredAt,
  });
  const deliver = async (...envelopes: ReturnType<typeof event>[]) => {
    await stack.bus.publish(envelopes.map((envelope) => ({ topic: 'earshot.auth', key: company._id, envelope })));
    await stack.settle();
  };

  const users = async () =>
    (await stack.as(host, { method: 'GET', url: `/api/companies/${company._id}` })).json().userCount;
  await deliver(event('user.created', state, '2026-01-01T09:00:00.000Z'));
  expect(await users()).toBe(1);
  // Deleted at 10:00; an update made at 09:30 is delivered afterwards.
  await deliver(
    event('user.deleted', null, '2026-01-01T10:00:00.000Z'),
    event('user.updated', state, '2026-01-01T09:30:00.000Z'),
  );
  expect(await stack.database.query('select 1 from tenant.company_members where user_id = $1', [userId])).toEqual([]);
  expect(await users()).toBe(0);
});
