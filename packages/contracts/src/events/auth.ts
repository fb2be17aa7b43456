import { z } from 'zod';
import { defineEvent, change, pastVersion } from './envelope';
import { ROLES } from '../roles';
import { SSO_ERRORS, USER_STATUSES } from '../constants';
import { SsoProviderState } from '../api/sso';

const topic = 'earshot.auth';
const UserState = z.object({
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: z.enum(ROLES),
  companyId: z.string().nullable(),
  /** active, disabled, or invited (waiting to choose a password); optional: consumers built before it was added keep working. */
  status: z.enum(USER_STATUSES).optional(),
  /** The picture's address (an uploaded one changes with each upload); optional, like status. */
  avatar: z.string().nullable().optional(),
  /** The person's monthly credits cap (null: none); optional, like status. The tenant service keeps it for its credit checks. */
  monthlyCredits: z.number().nullable().optional(),
});

const SignedInV1 = z.object({
  id: z.string(),
  email: z.string(),
  method: z.enum(['password', 'two_step', 'provider']),
});
const SIGN_IN_METHODS = ['password', 'two_step', 'provider', 'sso'] as const;
const SIGN_IN_FAILURES = ['invalid_credentials', 'throttled', 'disabled', 'invalid_code'] as const;
const SignInFailedV1 = z.object({ id: z.string().nullable(), email: z.string(), reason: z.enum(SIGN_IN_FAILURES) });

export const authEvents = [
  defineEvent({
    type: 'user.signed_in',
    version: 2,
    topic,
    description: "A person signed in; `sso` is their company's own identity provider (OpenID Connect).",
    data: z.object({ id: z.string(), email: z.string(), method: z.enum(SIGN_IN_METHODS) }),
    past: [pastVersion(1, SignedInV1, (d) => d)],
  }),
  defineEvent({
    type: 'user.sign_in_failed',
    version: 2,
    topic,
    description:
      "A sign-in attempt failed: wrong credentials, throttled, disabled, a wrong code, password sign-in where the company requires its own sign-in, or a refused single sign-on (the reason is one of SSO_ERRORS; `issuer` names the company's provider).",
    data: z.object({
      id: z.string().nullable(),
      email: z.string(),
      reason: z.enum([...SIGN_IN_FAILURES, 'sso_required', ...SSO_ERRORS]),
      issuer: z.string().optional(),
    }),
    past: [pastVersion(1, SignInFailedV1, (d) => d)],
  }),
  defineEvent({
    type: 'sso.configured',
    version: 1,
    topic,
    description:
      "A company's identity provider (OpenID Connect single sign-on) was saved: issuer, client id, e-mail domains, whether it is required and the role mapping. The client secret is never in it; `secretChanged` says whether a new one was given.",
    data: SsoProviderState.extend({ secretChanged: z.boolean() }),
  }),
  defineEvent({
    type: 'sso.removed',
    version: 1,
    topic,
    description: "A company's single sign-on was turned off: its people sign in with a password again.",
    data: z.object({ companyId: z.string() }),
  }),
  defineEvent({
    type: 'user.signed_out',
    version: 1,
    topic,
    description: 'A session was ended by its owner.',
    data: z.object({ id: z.string() }),
  }),
  defineEvent({
    type: 'user.session_revoked',
    version: 1,
    topic,
    description: 'A refresh token was reused; its whole family was revoked.',
    data: z.object({ id: z.string(), reason: z.string() }),
  }),
  defineEvent({
    type: 'user.sessions_ended',
    version: 1,
    topic,
    description:
      'Sessions ended (sign-out, reused refresh token, account disabled, deleted, given another role or company, password changed, company switched off): every verifier refuses their access tokens until `until`, when the last of them expires.',
    data: z.object({
      userId: z.string().nullable(),
      sessionIds: z.array(z.string()).max(1000),
      reason: z.enum([
        'signed_out',
        'refresh_token_reused',
        'disabled',
        'deleted',
        'role_changed',
        'company_changed',
        'company_blocked',
        'password_changed',
      ]),
      until: z.string(),
    }),
  }),
  defineEvent({
    type: 'user.created',
    version: 1,
    topic,
    description: 'A user account was created.',
    data: change(UserState),
  }),
  defineEvent({
    type: 'user.updated',
    version: 1,
    topic,
    description: 'A user account was changed.',
    data: change(UserState),
  }),
  defineEvent({
    type: 'user.deleted',
    version: 1,
    topic,
    description: 'A user account was deleted.',
    data: change(UserState),
  }),
  defineEvent({
    type: 'user.password_changed',
    version: 1,
    topic,
    description: 'A password was changed or reset.',
    data: z.object({ id: z.string(), via: z.enum(['profile', 'reset', 'admin']) }),
  }),
  defineEvent({
    type: 'user.password_reset_requested',
    version: 2,
    topic,
    description:
      "A password reset link was requested for an existing account. The link is sealed (AES-GCM under the deployment's SECRETS_KEY) so that only the mail sender can open it: the audit log and other consumers never hold a usable link.",
    data: z.object({
      id: z.string(),
      email: z.string(),
      firstName: z.string(),
      lastName: z.string(),
      sealedLink: z.string().nullable(),
      expiresInMinutes: z.number().int(),
    }),
    // Version 1 carried the link in clear and was never mailed (no sender existed); its link has
    // long expired, so it upcasts to a request without a deliverable link.
    past: [
      pastVersion(1, z.object({ id: z.string(), email: z.string(), resetUrl: z.string() }), (d) => ({
        id: d.id,
        email: d.email,
        firstName: '',
        lastName: '',
        sealedLink: null,
        expiresInMinutes: 0,
      })),
    ],
  }),
  defineEvent({
    type: 'user.invited',
    version: 1,
    topic,
    description:
      "Someone was invited (a new account waiting for its password), or their invitation was sent again (resent: true, the earlier link no longer works). The link to choose the password is sealed like a reset link's: only the mail sender can open it.",
    data: z.object({
      id: z.string(),
      email: z.string(),
      firstName: z.string(),
      lastName: z.string(),
      sealedLink: z.string(),
      expiresInDays: z.number().int(),
      resent: z.boolean(),
    }),
  }),
  defineEvent({
    type: 'user.invitation_revoked',
    version: 1,
    topic,
    description:
      'An invitation was withdrawn before it was accepted: its link no longer works and the waiting account is deleted (user.deleted follows).',
    data: z.object({ id: z.string(), email: z.string() }),
  }),
  defineEvent({
    type: 'user.two_step_changed',
    version: 1,
    topic,
    description: 'Two-step verification was turned on or off.',
    data: z.object({ id: z.string(), enabled: z.boolean() }),
  }),
] as const;
