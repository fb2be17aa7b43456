import { SYSTEM_ACTOR } from '@earshot/contracts';
import { hostAdminExists, insertUser } from '../repositories/users';
import { purgeExpired } from '../repositories/tokens';
import { purgeStale } from '../repositories/throttle';
import { isUniqueViolation } from '@earshot/kit';
import { userState, type AuthBase } from './context';
import { restoreEnded } from './sessions';
import { hashPassword, prepareDummyHash, randomPassword } from './passwords';

/**
 * First start: with no platform administrator, create one from ADMIN_EMAIL / ADMIN_PASSWORD. A
 * generated password is printed once to the console (never through the logger, whose output may
 * be shipped elsewhere). Replicas starting together race harmlessly on the unique email.
 */
export async function ensurePlatformAdmin(ctx: AuthBase): Promise<boolean> {
  if (await hostAdminExists(ctx.db)) return false;
  const email = ctx.config.ADMIN_EMAIL;
  const generated = ctx.config.ADMIN_PASSWORD ? undefined : randomPassword();
  const passwordHash = await hashPassword(ctx.config.ADMIN_PASSWORD ?? generated!);
  try {
    await ctx.transact(async (tx, emit) => {
      const user = await insertUser(tx, {
        companyId: null,
        email,
        firstName: 'Platform',
        lastName: 'Administrator',
        avatar: null,
        role: 'HOST_ADMIN',
        passwordHash,
      });
      emit({
        type: 'user.created',
        companyId: null,
        actor: SYSTEM_ACTOR,
        data: { id: user.id, after: userState(user) },
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
  ctx.logger.info({ email }, 'created the platform administrator');
  if (generated) {
    console.log(
      [
        '',
        '================================================================',
        '  Earshot platform administrator created',
        `  email:    ${email}`,
        `  password: ${generated}`,
        '  This password is shown only once: sign in and change it.',
        '================================================================',
        '',
      ].join('\n'),
    );
  }
  return true;
}

export async function startAuth(ctx: AuthBase): Promise<void> {
  await prepareDummyHash();
  await purgeExpired(ctx.db);
  await purgeStale(ctx.db);
  await restoreEnded(ctx);
  await ensurePlatformAdmin(ctx);
}
