import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ADMINS, ALL_ROLES, ChangePasswordBody, Dropdown, DropdownQuery, IdParams, MessageBody, ProfileUpdateBody, RegisterUserBody, RoleDto,
  TwoStepDisableBody, TwoStepEnableBody, TwoStepSetupResponse, UpdateUserBody, UserDetailDto, UserListQuery, paginated,
} from '@earshot/contracts';
import { identityOf } from '@earshot/kit';
import { toUserDetailDto, type AuthContext } from '../services/context';
import type { AuthServices } from '../services/index';
import { ROLE_INFO, assignableRoles, ownAccount } from '../services/users';
import { signedInCaller } from './cookies';
import { errors } from './schemas';

const EXAMPLE_USER = { firstName: 'Example', lastName: 'Person', email: 'example.person@example.com', password: 'example-password', role: 'USER' };

export async function userRoutes(app: FastifyInstance, ctx: AuthContext, { users, credentials }: AuthServices): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['users'];

  // Own account (every role) --------------------------------------------------------------------

  r.get('/users/profile', {
    config: { access: ALL_ROLES },
    schema: { tags, summary: 'The signed-in user', response: { 200: UserDetailDto, ...errors(401, 404) } },
  }, async (request) => toUserDetailDto(await ownAccount(ctx.db, identityOf(request))));

  r.put('/users/profile', {
    config: { access: ALL_ROLES, example: { body: { firstName: 'Example' } } },
    schema: { tags, summary: 'Change your own name or avatar', body: ProfileUpdateBody, response: { 200: UserDetailDto, ...errors(400, 401, 403, 404) } },
  }, async (request) => toUserDetailDto(await users.updateProfile(identityOf(request), request.body)));

  r.put('/users/password', {
    config: { access: ALL_ROLES, example: { body: { currentPassword: 'example-password', newPassword: 'another-password' } } },
    schema: { tags, summary: 'Change your own password (your other sessions end)', body: ChangePasswordBody, response: { 200: MessageBody, ...errors(400, 401, 403, 404) } },
  }, async (request) => {
    await credentials.changePassword(signedInCaller(request), identityOf(request), request.body.currentPassword, request.body.newPassword);
    return { message: 'Your password was changed' };
  });

  r.post('/users/two-step/setup', {
    config: { access: ALL_ROLES },
    schema: { tags, summary: 'Start setting up two-step verification: a secret for the authenticator app', response: { 200: TwoStepSetupResponse, ...errors(401, 403, 404, 409) } },
  }, async (request) => credentials.setupTwoStep(identityOf(request)));

  r.post('/users/two-step/enable', {
    config: { access: ALL_ROLES, example: { body: { code: '123456' } } },
    schema: { tags, summary: 'Turn two-step verification on with a code from the app', body: TwoStepEnableBody, response: { 200: MessageBody, ...errors(400, 401, 403, 404, 409) } },
  }, async (request) => {
    await credentials.enableTwoStep(signedInCaller(request), identityOf(request), request.body.code);
    return { message: 'Two-step verification is on' };
  });

  r.post('/users/two-step/disable', {
    config: { access: ALL_ROLES, example: { body: { password: 'example-password' } } },
    schema: { tags, summary: 'Turn two-step verification off (needs your password)', body: TwoStepDisableBody, response: { 200: MessageBody, ...errors(400, 401, 403, 404) } },
  }, async (request) => {
    await credentials.disableTwoStep(signedInCaller(request), identityOf(request), request.body.password);
    return { message: 'Two-step verification is off' };
  });

  // Administration (HOST_ADMIN: every company; ADMIN: their own) ---------------------------------

  r.get('/users', {
    config: { access: ADMINS },
    schema: { tags, summary: 'Users, paginated (HOST_ADMIN may filter by companyId)', querystring: UserListQuery, response: { 200: paginated(UserDetailDto), ...errors(400, 401, 403) } },
  }, async (request) => {
    const page = await users.listUsers(identityOf(request), request.query);
    return { ...page, items: page.rows.map(toUserDetailDto) };
  });

  r.get('/users/dropdown', {
    config: { access: ADMINS },
    schema: { tags, summary: 'Users for pickers: id and name', querystring: DropdownQuery, response: { 200: Dropdown, ...errors(400, 401, 403) } },
  }, async (request) => users.dropdown(identityOf(request), request.query.companyId));

  r.post('/users/register', {
    config: { access: ADMINS, example: { body: EXAMPLE_USER } },
    schema: { tags, summary: 'Create a user', body: RegisterUserBody, response: { 201: UserDetailDto, ...errors(400, 401, 403, 404, 409) } },
  }, async (request, reply) => reply.code(201).send(toUserDetailDto(await users.registerUser(identityOf(request), request.body))));

  r.get('/users/:id', {
    config: { access: ADMINS, params: { id: 'user' } },
    schema: { tags, summary: 'One user', params: IdParams, response: { 200: UserDetailDto, ...errors(400, 401, 403, 404) } },
  }, async (request) => toUserDetailDto(await users.getUser(identityOf(request), request.params.id)));

  r.put('/users/:id', {
    config: { access: ADMINS, params: { id: 'user' }, example: { body: { firstName: 'Example' } } },
    schema: { tags, summary: 'Change a user', params: IdParams, body: UpdateUserBody, response: { 200: UserDetailDto, ...errors(400, 401, 403, 404, 409) } },
  }, async (request) => toUserDetailDto(await users.updateUserById(identityOf(request), request.params.id, request.body)));

  r.delete('/users/:id', {
    config: { access: ADMINS, params: { id: 'user' } },
    schema: { tags, summary: 'Delete a user', params: IdParams, response: { 204: z.null(), ...errors(400, 401, 403, 404) } },
  }, async (request, reply) => {
    await users.deleteUserById(identityOf(request), request.params.id);
    return reply.code(204).send(null);
  });

  r.get('/roles', {
    config: { access: ADMINS },
    schema: { tags, summary: 'Roles the caller may give, with what each may do', response: { 200: z.array(RoleDto), ...errors(401, 403) } },
  }, async (request) => assignableRoles(identityOf(request)).map((code) => ({ code, ...ROLE_INFO[code] })));
}
