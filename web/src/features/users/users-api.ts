// Calls of the users page (HOST_ADMIN: every company; ADMIN: their own), injected into the app's
// one RTK Query API. Shapes: services/auth/src/routes/users.ts.
import type { AdminUserDto, UpdateUserBody, UserCapBody, UserCapDto, UserDetailDto } from '@earshot/contracts';
import type { Role } from '@earshot/contracts/constants';
import { api } from '../../lib/api';
import { queryParams } from '../../lib/query-params';

export type UserStatus = UserDetailDto['status'];

export interface UserPage {
  items: AdminUserDto[];
  page: number;
  pageSize: number;
  total: number;
  totalPages: number;
}

export interface UserFilters {
  q?: string;
  role?: Role;
  status?: UserStatus;
  companyId?: string;
  page: number;
}

export interface RoleOption {
  code: Role;
  name: string;
  description: string;
  /** Left out by the server when every listed role may be given. */
  assignable?: boolean;
}

export interface NewUser {
  firstName: string;
  lastName: string;
  email: string;
  role: Role;
  companyId?: string;
  /** Left out: the server makes a temporary one, answers it once, and asks for a change at next sign-in. */
  password?: string;
  /** Instead of a password: the person is mailed a link to choose their own. */
  invite?: true;
}

/** The created user; `temporaryPassword` only when the server made one. */
export type CreatedUser = UserDetailDto & { temporaryPassword?: string };

export const USERS_PAGE_SIZE = 20;

const withTags = api.enhanceEndpoints({ addTagTypes: ['Users'] });

export const usersApi = withTags.injectEndpoints({
  endpoints: (build) => ({
    users: build.query<UserPage, UserFilters>({
      query: (filters) => ({ url: '/users', params: queryParams({ ...filters, pageSize: USERS_PAGE_SIZE }) }),
      providesTags: ['Users'],
    }),
    roles: build.query<RoleOption[], void>({ query: () => '/roles' }),
    createUser: build.mutation<CreatedUser, NewUser>({
      query: (body) => ({ url: '/users/register', method: 'POST', body }),
      invalidatesTags: ['Users'],
    }),
    updateUser: build.mutation<
      UserDetailDto,
      { id: string; body: Pick<UpdateUserBody, 'firstName' | 'lastName' | 'role' | 'status'> }
    >({
      query: ({ id, body }) => ({ url: `/users/${encodeURIComponent(id)}`, method: 'PUT', body }),
      invalidatesTags: ['Users'],
    }),
    deleteUser: build.mutation<null, string>({
      query: (id) => ({ url: `/users/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['Users'],
    }),
    resetPassword: build.mutation<{ temporaryPassword: string }, string>({
      query: (id) => ({ url: `/users/${encodeURIComponent(id)}/reset-password`, method: 'POST' }),
    }),
    resendInvitation: build.mutation<AdminUserDto, string>({
      query: (id) => ({ url: `/users/${encodeURIComponent(id)}/invitation`, method: 'POST' }),
      invalidatesTags: ['Users'],
    }),
    revokeInvitation: build.mutation<null, string>({
      query: (id) => ({ url: `/users/${encodeURIComponent(id)}/invitation`, method: 'DELETE' }),
      invalidatesTags: ['Users'],
    }),
    setUserCap: build.mutation<UserCapDto, { id: string; body: UserCapBody }>({
      query: ({ id, body }) => ({ url: `/users/${encodeURIComponent(id)}/cap`, method: 'PUT', body }),
      invalidatesTags: ['Users'],
    }),
    resetTwoStep: build.mutation<unknown, string>({
      query: (id) => ({ url: `/users/${encodeURIComponent(id)}/reset-two-step`, method: 'POST' }),
      invalidatesTags: ['Users'],
    }),
  }),
});

export const {
  useUsersQuery,
  useRolesQuery,
  useCreateUserMutation,
  useUpdateUserMutation,
  useDeleteUserMutation,
  useSetUserCapMutation,
  useResetPasswordMutation,
  useResetTwoStepMutation,
  useResendInvitationMutation,
  useRevokeInvitationMutation,
} = usersApi;
