import { AvatarService } from './avatars';
import type { AuthContext } from './context';
import { CredentialService } from './credentials';
import { OwnSessionService } from './own-sessions';
import { ProviderService } from './providers';
import { SignInService } from './sign-in';
import { SsoService } from './sso';
import { UserService } from './users';

/** The service objects the routes call, built once when the module is mounted. */
export interface AuthServices {
  signIns: SignInService;
  credentials: CredentialService;
  providers: ProviderService;
  users: UserService;
  sessions: OwnSessionService;
  avatars: AvatarService;
  sso: SsoService;
}

export function authServices(ctx: AuthContext): AuthServices {
  const signIns = new SignInService(ctx);
  return {
    signIns,
    credentials: new CredentialService(ctx),
    providers: new ProviderService(ctx, signIns),
    users: new UserService(ctx),
    sessions: new OwnSessionService(ctx),
    avatars: new AvatarService(ctx),
    sso: new SsoService(ctx, signIns),
  };
}
