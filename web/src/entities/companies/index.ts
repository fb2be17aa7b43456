// The company picker every administration page shares: one query, so a company created, renamed
// or deleted on /companies (its mutations invalidate { type: 'Company', id: 'LIST' }) refreshes
// every dropdown at once.
export { companyOptionsApi, useCompanyOptionsQuery, type CompanyOption } from './company-options';
export { CompanyPicker } from './company-picker';
