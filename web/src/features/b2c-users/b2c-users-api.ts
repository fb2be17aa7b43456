// Calls of the B2C users page (HOST_ADMIN), injected into the app's one RTK Query API. Creating,
// disabling and deleting a consumer are the users API's own routes.
import { api } from '../../lib/api';

export interface B2cUser {
  _id: string;
  firstName: string;
  lastName: string;
  email: string;
  companyId: string;
  companyName: string;
  status: 'active' | 'disabled';
  recordings: number;
  storageUsed: number;
  lastSignInAt: string | null;
}

export interface B2cUserPage {
  items: B2cUser[];
  page: number;
  pageSize: number;
  total: number;
  totalPages: number;
}

export interface NewConsumer {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  companyId: string;
}

const LIST = { type: 'B2cUser', id: 'LIST' } as const;

export const b2cUsersApi = api.injectEndpoints({
  endpoints: (build) => ({
    b2cUsers: build.query<B2cUserPage, { search?: string; page: number; pageSize: number }>({
      query: ({ search, ...rest }) => ({ url: '/users/b2c', params: search ? { search, ...rest } : rest }),
      providesTags: [LIST],
    }),
    b2cCompanies: build.query<Array<{ _id: string; name: string }>, void>({
      query: () => ({ url: '/companies', params: { type: 'b2c', pageSize: 200 } }),
      transformResponse: (page: { items: Array<{ _id: string; name: string }> }) =>
        page.items.map(({ _id, name }) => ({ _id, name })),
    }),
    createConsumer: build.mutation<unknown, NewConsumer>({
      query: (body) => ({ url: '/users/register', method: 'POST', body: { ...body, role: 'USER' } }),
      invalidatesTags: [LIST],
    }),
    setConsumerStatus: build.mutation<unknown, { id: string; status: B2cUser['status'] }>({
      query: ({ id, status }) => ({ url: `/users/${id}`, method: 'PUT', body: { status } }),
      invalidatesTags: [LIST],
    }),
    deleteConsumer: build.mutation<unknown, string>({
      query: (id) => ({ url: `/users/${id}`, method: 'DELETE' }),
      invalidatesTags: [LIST],
    }),
  }),
});

export const {
  useB2cUsersQuery,
  useB2cCompaniesQuery,
  useCreateConsumerMutation,
  useSetConsumerStatusMutation,
  useDeleteConsumerMutation,
} = b2cUsersApi;
