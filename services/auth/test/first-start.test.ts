import { jest } from '@jest/globals';
import { createTestStack } from '@earshot/kit/testing';
import { authService } from '../src/index';
import { login, outboxEvents } from './helpers';

test('with no ADMIN_PASSWORD a random one is generated, printed once to the console, and works', async () => {
  const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
  const stack = await createTestStack([authService]);
  try {
    expect(log).toHaveBeenCalledTimes(1);
    const printed = String(log.mock.calls[0]![0]);
    expect(printed).toContain('admin@earshot.local');
    const password = /password: (\S+)/.exec(printed)![1]!;
    expect(password.length).toBeGreaterThanOrEqual(16);
    const res = await login(stack, { email: 'admin@earshot.local', password });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.roles.role.code).toBe('HOST_ADMIN');
    const created = await outboxEvents(stack, 'user.created');
    expect(created).toHaveLength(1);
    expect(created[0]!.actor).toEqual({ type: 'system', id: null });
    expect(JSON.stringify(created)).not.toContain(password);
    // A restart (the start hook again) creates nobody and prints nothing.
    await authService.start!(stack.running.contexts.get('auth') as never);
    expect(log).toHaveBeenCalledTimes(1);
    const admins = await stack.database.query(`select id from auth.users where role = 'HOST_ADMIN'`);
    expect(admins).toHaveLength(1);
  } finally {
    log.mockRestore();
    await stack.close();
  }
});
