// The company picker's options (`GET /companies/dropdown`, HOST_ADMIN), shared by every page with a
// company dropdown: the one declaration of that call, so they share its cache and its tag.
// Only lazy page chunks import this file.
import { api } from '../../lib/api';

export interface CompanyOption {
  _id: string;
  name: string;
}

export const companyOptionsApi = api.injectEndpoints({
  endpoints: (build) => ({
    companyOptions: build.query<CompanyOption[], void>({
      query: () => '/companies/dropdown',
      providesTags: [{ type: 'Company', id: 'LIST' }],
    }),
  }),
});

export const { useCompanyOptionsQuery } = companyOptionsApi;
