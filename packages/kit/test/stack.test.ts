import { z } from 'zod';
import { sql } from 'drizzle-orm';
import type { EventOf } from '@earshot/contracts';
import { defineService, identityOf, on } from '../src';
import { createTestStack, type TestStack } from '../src/testing';

// A tiny service that writes state and an event in one transaction, and a consumer of that event.
const seen: EventOf<'user.signed_out'>[] = [];
const notes = defineService({
  name: 'notes',
  schema: 'notes_test',
  prefixes: ['/notes'],
  migrations: [{ name: '0001_notes', sql: 'create table notes (id serial primary key, text text not null)' }],
  async routes(app, ctx) {
    app.post(
      '/notes',
      {
        config: { access: ['ADMIN'] },
        schema: { body: z.object({ text: z.string().min(1) }).strict() },
      },
      async (request, reply) => {
        const who = identityOf(request);
        const { text } = request.body as { text: string };
        await ctx.transact(async (tx, emit) => {
          await tx.execute(sql`insert into notes_test.notes (text) values (${text})`);
          emit({
            type: 'user.signed_out',
            companyId: who.companyId,
            actor: { type: 'user', id: who.userId },
            data: { id: who.userId },
          });
        });
        return reply.code(201).send({ ok: true });
      },
    );
  },
  subscriptions: () => [on('user.signed_out', async (event) => void seen.push(event))],
});

let stack: TestStack;
beforeAll(async () => {
  stack = await createTestStack([notes]);
});
afterAll(async () => stack.close());

test('state and event commit together, the consumer applies each event once', async () => {
  const token = await stack.tokenFor('ADMIN', '11111111-1111-4111-8111-111111111111');
  const res = await stack.as(token, { method: 'POST', url: '/api/notes', payload: { text: 'hello' } });
  expect(res.statusCode).toBe(201);
  await stack.settle();
  expect(seen).toHaveLength(1);
  expect(seen[0]!.type).toBe('user.signed_out');
  expect(seen[0]!.companyId).toBe('11111111-1111-4111-8111-111111111111');
  // Redelivery (at-least-once) is skipped by the ledger.
  await stack.bus.publish([{ topic: 'earshot.auth', key: 'k', envelope: seen[0]! }]);
  await stack.settle();
  expect(seen).toHaveLength(1);
});

test('access is checked before validation: wrong role 403, anonymous 401, bad body 400 naming the field', async () => {
  const user = await stack.tokenFor('USER', null);
  expect((await stack.as(user, { method: 'POST', url: '/api/notes', payload: {} })).statusCode).toBe(403);
  expect((await stack.as(null, { method: 'POST', url: '/api/notes', payload: {} })).statusCode).toBe(401);
  const admin = await stack.tokenFor('ADMIN', null);
  const bad = await stack.as(admin, { method: 'POST', url: '/api/notes', payload: { text: 'x', extra: 1 } });
  expect(bad.statusCode).toBe(400);
  expect(bad.json().message).toMatch(/extra/);
});
