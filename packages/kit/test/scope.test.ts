import { NO_COMPANY, actorOf, companyScope, type Identity } from '../src';

const who = (role: Identity['role'], companyId: string | null): Identity => ({
  userId: 'u1',
  companyId,
  role,
  email: 'a@b.c',
  sessionId: 's1',
  via: 'bearer',
  ip: '127.0.0.1',
});

test('a company role is scoped to its own company, whatever it asks for', () => {
  expect(companyScope(who('ADMIN', 'c1'), 'c2')).toBe('c1');
});

test('a company role without a company sees nothing rather than every company', () => {
  for (const role of ['ADMIN', 'USER', 'CALLER'] as const) expect(companyScope(who(role, null))).toBe(NO_COMPANY);
});

test('the platform administrator sees all companies, or the one it names', () => {
  expect(companyScope(who('HOST_ADMIN', null))).toBeNull();
  expect(companyScope(who('HOST_ADMIN', null), 'c2')).toBe('c2');
});

test('an actor carries who and from where, never the session kind', () => {
  expect(actorOf(who('USER', 'c1'), '10.0.0.1')).toEqual({
    type: 'user',
    id: 'u1',
    email: 'a@b.c',
    role: 'USER',
    ip: '10.0.0.1',
  });
});
