import { z } from 'zod';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ADMINS,
  ALL_ROLES,
  AVATAR_MAX_BYTES,
  AdminUserDto,
  B2cUserDto,
  B2cUserQuery,
  ChangePasswordBody,
  ClientErrorReportBody,
  CreatedUserDto,
  DropdownQuery,
  HOST_ONLY,
  IdParams,
  MessageBody,
  ProfileUpdateBody,
  RegisterUserBody,
  RevokedSessionsResponse,
  SupportContactDto,
  RoleDto,
  SessionDto,
  TemporaryPasswordResponse,
  TwoStepDisableBody,
  TwoStepEnableBody,
  TwoStepEnabledResponse,
  TwoStepSetupResponse,
  UpdateUserBody,
  UserDetailDto,
  UserCapBody,
  UserCapDto,
  UserDropdownItem,
  UserListQuery,
  paginated,
} from '@earshot/contracts';
import { identityOf, imageError } from '@earshot/kit';
import { toUserDetailDto, type AuthContext } from '../services/context';
import type { AuthServices } from '../services/index';
import { reportClientError } from '../services/client-errors';
import { supportContactsFor } from '../services/support';
import { adminView, ownAccount } from '../services/users';
import { signedInCaller } from './cookies';
import { errors } from './schemas';

/** Room for the multipart headers around the picture. */
const MULTIPART_OVERHEAD = 16 * 1024;

const EXAMPLE_USER = {
  firstName: 'Example',
  lastName: 'Person',
  email: 'example.person@example.com',
  password: 'example-password',
  role: 'USER',
};

export async function userRoutes(
  app: FastifyInstance,
  ctx: AuthContext,
  { users, credentials, sessions, avatars }: AuthServices,
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['users'];
  // In this service's scope only: other routes keep the JSON body limit.
  await app.register(multipart, { throwFileSizeLimit: false });

  // Own account (every role) --------------------------------------------------------------------

  r.get(
    '/users/profile',
    {
      config: { access: ALL_ROLES },
      schema: { tags, summary: 'The signed-in user', response: { 200: UserDetailDto, ...errors(401, 404) } },
    },
    async (request) => toUserDetailDto(await ownAccount(ctx.db, identityOf(request))),
  );

  r.put(
    '/users/profile',
    {
      config: { access: ALL_ROLES, example: { body: { firstName: 'Example' } } },
      schema: {
        tags,
        summary: 'Change your own name, avatar or language',
        body: ProfileUpdateBody,
        response: { 200: UserDetailDto, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => toUserDetailDto(await users.updateProfile(identityOf(request), request.body)),
  );

  r.post(
    '/users/profile/avatar',
    {
      config: { access: ALL_ROLES },
      bodyLimit: AVATAR_MAX_BYTES + MULTIPART_OVERHEAD,
      schema: {
        tags,
        summary:
          'Upload your picture (multipart field `file`): PNG, JPEG, WebP or ICO, at most 1 MB, checked by content',
        response: { 200: UserDetailDto, ...errors(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      if (!request.isMultipart()) throw imageError.notMultipart();
      const part = await request.file({
        limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 0, parts: 1, headerPairs: 20 },
      });
      if (!part || part.fieldname !== 'file') throw imageError.noFile();
      const data = await part.toBuffer();
      if (part.file.truncated) throw imageError.tooLarge(AVATAR_MAX_BYTES);
      return toUserDetailDto(await avatars.upload(identityOf(request), data));
    },
  );

  r.delete(
    '/users/profile/avatar',
    {
      config: { access: ALL_ROLES },
      schema: { tags, summary: 'Remove your picture', response: { 200: UserDetailDto, ...errors(401, 403, 404) } },
    },
    async (request) => toUserDetailDto(await avatars.remove(identityOf(request))),
  );

  // Drawn beside a person's name wherever the console shows them: anyone of their company may fetch it.
  r.get(
    '/users/avatars/:id',
    {
      config: { access: ALL_ROLES, params: { id: 'avatarUser' } },
      schema: {
        tags,
        summary: "A person's picture (same company; another company's is 404)",
        params: IdParams,
        response: errors(400, 401, 403, 404),
      },
      // The body is the image's bytes: the reply is not typed by the JSON error schemas above.
    },
    async (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => {
      const image = await avatars.image(identityOf(request), request.params);
      return (
        reply
          .header('content-type', image.contentType)
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "default-src 'none'; sandbox")
          // Private: it is behind the session; immutable: a new picture has a new ?v= address.
          .header('cache-control', 'private, max-age=31536000, immutable')
          .send(image.content)
      );
    },
  );

  r.put(
    '/users/password',
    {
      config: {
        access: ALL_ROLES,
        example: { body: { currentPassword: 'example-password', newPassword: 'another-password' } },
      },
      schema: {
        tags,
        summary: 'Change your own password (your other sessions end)',
        body: ChangePasswordBody,
        response: { 200: MessageBody, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      await credentials.changePassword(
        signedInCaller(request),
        identityOf(request),
        request.body.currentPassword,
        request.body.newPassword,
      );
      return { message: 'Your password was changed' };
    },
  );

  r.post(
    '/users/two-step/setup',
    {
      config: { access: ALL_ROLES },
      schema: {
        tags,
        summary: 'Start setting up two-step verification: a secret for the authenticator app',
        response: { 200: TwoStepSetupResponse, ...errors(401, 403, 404, 409) },
      },
    },
    async (request) => credentials.setupTwoStep(identityOf(request)),
  );

  r.post(
    '/users/two-step/enable',
    {
      config: { access: ALL_ROLES, example: { body: { code: '123456' } } },
      schema: {
        tags,
        summary: 'Turn two-step verification on with a code from the app: answers the recovery codes, this once',
        body: TwoStepEnableBody,
        response: { 200: TwoStepEnabledResponse, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const recoveryCodes = await credentials.enableTwoStep(
        signedInCaller(request),
        identityOf(request),
        request.body.code,
      );
      return { message: 'Two-step verification is on', recoveryCodes };
    },
  );

  r.post(
    '/users/two-step/disable',
    {
      config: { access: ALL_ROLES, example: { body: { code: '123456' } } },
      schema: {
        tags,
        summary: 'Turn two-step verification off (needs a current code from the app, or a recovery code)',
        body: TwoStepDisableBody,
        response: { 200: MessageBody, ...errors(400, 401, 403, 404, 409, 429) },
      },
    },
    async (request) => {
      await credentials.disableTwoStep(signedInCaller(request), identityOf(request), request.body.code);
      return { message: 'Two-step verification is off' };
    },
  );

  r.get(
    '/users/sessions',
    {
      config: { access: ALL_ROLES },
      schema: {
        tags,
        summary: 'Your signed-in sessions: device, address, last seen; `current` is this one',
        response: { 200: z.array(SessionDto), ...errors(401, 403) },
      },
    },
    async (request) => sessions.list(identityOf(request)),
  );

  r.post(
    '/users/sessions/revoke-others',
    {
      config: { access: ALL_ROLES },
      schema: {
        tags,
        summary: 'Sign out everywhere else: every session of yours but this one ends at once',
        response: { 200: RevokedSessionsResponse, ...errors(401, 403, 404) },
      },
    },
    async (request) => ({ revoked: await sessions.revokeOthers(signedInCaller(request), identityOf(request)) }),
  );

  r.delete(
    '/users/sessions/:id',
    {
      config: { access: ALL_ROLES, params: { id: 'session' } },
      schema: {
        tags,
        summary: 'Sign one of your sessions out (its access token is refused at once)',
        params: IdParams,
        response: { 204: z.null(), ...errors(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await sessions.revoke(signedInCaller(request), identityOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  r.get(
    '/users/support-contacts',
    {
      config: { access: ALL_ROLES },
      schema: {
        tags,
        summary: "Who to ask for help: your company's administrators (platform administrators: each other)",
        response: { 200: z.array(SupportContactDto), ...errors(401, 403) },
      },
    },
    async (request) => supportContactsFor(ctx.db, identityOf(request)),
  );

  r.post(
    '/users/client-errors',
    {
      config: {
        access: ALL_ROLES,
        example: { body: { name: 'TypeError', message: 'x is undefined', path: '/companies' } },
      },
      schema: {
        tags,
        summary: 'Report a page of the console that failed to render (written to the server log)',
        body: ClientErrorReportBody,
        response: { 204: z.null(), ...errors(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      await reportClientError(ctx.db, ctx.logger, identityOf(request), request.body);
      return reply.code(204).send(null);
    },
  );

  // Administration (HOST_ADMIN: every company; ADMIN: their own) ---------------------------------

  const one = async (row: Parameters<typeof adminView>[1][number]) => (await adminView(ctx.db, [row]))[0]!;

  r.get(
    '/users',
    {
      config: { access: ADMINS },
      schema: {
        tags,
        summary: 'Users, paginated; search (q), role and status filters (HOST_ADMIN may filter by companyId)',
        querystring: UserListQuery,
        response: { 200: paginated(AdminUserDto), ...errors(400, 401, 403) },
      },
    },
    async (request) => {
      const page = await users.listUsers(identityOf(request), request.query);
      return { ...page, items: await adminView(ctx.db, page.rows) };
    },
  );

  r.get(
    '/users/dropdown',
    {
      config: { access: ADMINS },
      schema: {
        tags,
        summary: 'Users for pickers: id, name and email (HOST_ADMIN: ?companyId=)',
        querystring: DropdownQuery,
        response: { 200: z.array(UserDropdownItem), ...errors(400, 401, 403) },
      },
    },
    async (request) => users.dropdown(identityOf(request), request.query.companyId),
  );

  r.get(
    '/users/b2c',
    {
      config: { access: HOST_ONLY },
      schema: {
        tags,
        summary: 'Consumer users: the people of b2c companies, with their recordings and storage used',
        querystring: B2cUserQuery,
        response: { 200: paginated(B2cUserDto), ...errors(400, 401, 403) },
      },
    },
    async (request) => users.listB2cUsers(request.query),
  );

  r.post(
    '/users/register',
    {
      config: { access: ADMINS, example: { body: EXAMPLE_USER } },
      schema: {
        tags,
        summary:
          'Create a user: with a password; with invite: true (mailed a link to choose their own, invited until then); or with neither (a one-time password, answered once, to change at the first sign-in)',
        body: RegisterUserBody,
        response: { 201: CreatedUserDto, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const { user, temporaryPassword } = await users.registerUser(identityOf(request), request.body);
      return reply.code(201).send({ ...(await one(user)), ...(temporaryPassword ? { temporaryPassword } : {}) });
    },
  );

  r.get(
    '/users/:id',
    {
      config: { access: ADMINS, params: { id: 'user' } },
      schema: {
        tags,
        summary: 'One user',
        params: IdParams,
        response: { 200: AdminUserDto, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => one(await users.getUser(identityOf(request), request.params.id)),
  );

  r.put(
    '/users/:id',
    {
      config: { access: ADMINS, params: { id: 'user' }, example: { body: { firstName: 'Example' } } },
      schema: {
        tags,
        summary: 'Change a user: names, role, status (disabled ends their sessions)',
        params: IdParams,
        body: UpdateUserBody,
        response: { 200: AdminUserDto, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request) => one(await users.updateUserById(identityOf(request), request.params.id, request.body)),
  );

  r.put(
    '/users/:id/cap',
    {
      config: { access: ADMINS, params: { id: 'user' }, example: { body: { monthlyCredits: null } } },
      schema: {
        tags,
        summary: 'Set or clear a person’s monthly credits cap (an ADMIN: people of their own company)',
        params: IdParams,
        body: UserCapBody,
        response: { 200: UserCapDto, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => users.setCap(identityOf(request), request.params.id, request.body),
  );

  r.delete(
    '/users/:id',
    {
      config: { access: ADMINS, params: { id: 'user' } },
      schema: {
        tags,
        summary: 'Delete a user',
        params: IdParams,
        response: { 204: z.null(), ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await users.deleteUserById(identityOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  r.post(
    '/users/:id/reset-password',
    {
      config: { access: ADMINS, params: { id: 'user' } },
      schema: {
        tags,
        summary:
          'A one-time password for the user, answered once: they must change it at the next sign-in; their sessions end',
        params: IdParams,
        response: { 200: TemporaryPasswordResponse, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => ({ temporaryPassword: await users.resetPassword(identityOf(request), request.params.id) }),
  );

  r.post(
    '/users/:id/invitation',
    {
      config: { access: ADMINS, params: { id: 'invitedUser' } },
      schema: {
        tags,
        summary: 'Send an invited user a new invitation link (the earlier link stops working)',
        params: IdParams,
        response: { 200: AdminUserDto, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request) => one(await users.resendInvitation(identityOf(request), request.params.id)),
  );

  r.delete(
    '/users/:id/invitation',
    {
      config: { access: ADMINS, params: { id: 'invitedUser' } },
      schema: {
        tags,
        summary: 'Withdraw an invitation: its link stops working and the invited user (who never signed in) is deleted',
        params: IdParams,
        response: { 204: z.null(), ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await users.revokeInvitation(identityOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  r.post(
    '/users/:id/reset-two-step',
    {
      config: { access: ADMINS, params: { id: 'user' } },
      schema: {
        tags,
        summary: "Turn the user's two-step verification off (e.g. a lost phone)",
        params: IdParams,
        response: { 200: AdminUserDto, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => one(await users.resetTwoStep(identityOf(request), request.params.id)),
  );

  r.get(
    '/roles',
    {
      config: { access: ADMINS },
      schema: {
        tags,
        summary: 'Every role, what each may do, and whether the caller may give it',
        response: { 200: z.array(RoleDto), ...errors(401, 403) },
      },
    },
    async (request) => users.roles(identityOf(request)),
  );
}
