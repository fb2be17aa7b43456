/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// The companies page with the app's store and RTK Query API; only `fetch` is faked.
import { describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeGateway, renderPage, type Answer, type Call } from '../../../test/fake-gateway';
import CompaniesPage from './companies-page';
import type { Company } from './model';

const GB = 1024 ** 3;
function company(extra: Partial<Company> = {}): Company {
  return {
    _id: '00000000-0000-4000-8000-0000000000c1',
    name: 'Acme',
    code: 'ACME',
    domain: 'acme',
    type: 'business',
    status: 'active',
    maxUsers: 10,
    maxStorage: 10 * GB,
    language: 'en',
    encryption: false,
    apiKey: '****abcd',
    partnerCompanyId: null,
    favIcon: null,
    logo: null,
    mainPageLogo: null,
    settings: { theme: {} },
    balance: 0,
    createdAt: '2026-01-02T10:00:00.000Z',
    updatedAt: '2026-01-02T10:00:00.000Z',
    userCount: 3,
    storageUsed: 1.5 * GB,
    pendingServices: [],
    ...extra,
  };
}
const page = (items: Company[]) => ({ items, page: 1, pageSize: 20, total: items.length, totalPages: 1 });

function gateway(list: () => Answer, more: (request: Call) => Answer = () => undefined) {
  return fakeGateway((request) => {
    if (request.path === '/api/companies' && request.method === 'GET') return list();
    if (request.path === '/api/companies/dropdown')
      return { status: 200, body: [{ _id: company()._id, name: 'Acme' }] };
    return more(request);
  });
}

describe('companies page', () => {
  it('lists companies with use against limits, and filters on the server', async () => {
    const sent = gateway(() => ({
      status: 200,
      body: page([
        company(),
        company({ _id: 'c2', name: 'Zed', maxUsers: null, maxStorage: null, userCount: 0, storageUsed: 0 }),
      ]),
    }));
    const user = userEvent.setup();
    renderPage(<CompaniesPage />, { path: '/companies', url: '/companies', role: 'HOST_ADMIN', companyId: null });
    const rows = await screen.findAllByTestId('data-table-row');
    expect(rows).toHaveLength(2);
    // Shared keys (pages.*) resolve inside a feature's namespace too.
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Companies');
    expect(within(rows[0]!).getByText('3 / 10')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('1.5 GB / 10 GB')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('0 / unlimited')).toBeInTheDocument();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'suspended');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Type' }), 'b2c');
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'ac{Enter}');
    await waitFor(() =>
      expect(Object.fromEntries(sent.filter((r) => r.path === '/api/companies').at(-1)!.query)).toEqual({
        status: 'suspended',
        type: 'b2c',
        q: 'ac',
        page: '1',
        pageSize: '20',
      }),
    );
  });

  it('shows the empty state, and an error with a way to try again', async () => {
    let fail = true;
    gateway(() =>
      fail ? { status: 500, body: { message: 'Something went wrong on our side' } } : { status: 200, body: page([]) },
    );
    const user = userEvent.setup();
    renderPage(<CompaniesPage />, { path: '/companies', url: '/companies', role: 'HOST_ADMIN', companyId: null });
    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong on our side');
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No companies found')).toBeInTheDocument();
  });

  it('shows each rule the form checks under its field', async () => {
    const sent = gateway(() => ({ status: 200, body: page([]) }));
    const user = userEvent.setup();
    renderPage(<CompaniesPage />, { path: '/companies', url: '/companies', role: 'HOST_ADMIN', companyId: null });
    await user.click(await screen.findByRole('button', { name: 'New company' }));
    const form = screen.getByTestId('company-form');
    await user.type(within(form).getByLabelText('Code'), '-bad-');
    await user.type(within(form).getByLabelText('Domain'), 'www');
    await user.type(within(form).getByLabelText('Maximum users'), '0');
    await user.type(within(form).getByLabelText('Maximum storage'), '1.23456');
    await user.type(within(form).getByLabelText('Primary'), 'blue');
    await user.click(within(form).getByRole('button', { name: 'Create company' }));
    const errors = (await within(form).findAllByTestId('field-error')).map((node) => node.textContent);
    expect(errors).toEqual([
      'Enter a name (1–120 characters)',
      'Use 1–32 letters, digits or dashes (not at either end)',
      'Use 1–63 lower-case letters, digits or dashes (not at either end), and not a reserved name',
      'Enter a whole number from 1 to 1000000, or leave blank',
      'Enter a number with at most three decimals, or leave blank',
      'Use a hex colour like #3b82f6',
    ]);
    expect(sent.some((request) => request.method === 'POST')).toBe(false);
  });

  it('sends storage in bytes, puts a 409 on its field, and shows the new key once', async () => {
    let conflict = true;
    const sent = gateway(
      () => ({ status: 200, body: page([]) }),
      (request) => {
        if (request.method !== 'POST' || request.path !== '/api/companies') return undefined;
        if (conflict)
          return {
            status: 409,
            body: {
              message: 'A company with this domain already exists',
              code: 'CONFLICT',
              details: [{ field: 'body.domain', message: 'is already taken' }],
            },
          };
        return {
          status: 201,
          body: { ...company({ name: 'Beta', domain: 'beta', code: 'BETA' }), apiKey: 'esk_secretkey1234' },
        };
      },
    );
    const user = userEvent.setup();
    renderPage(<CompaniesPage />, { path: '/companies', url: '/companies', role: 'HOST_ADMIN', companyId: null });
    await user.click(await screen.findByRole('button', { name: 'New company' }));
    const form = screen.getByTestId('company-form');
    await user.type(within(form).getByLabelText('Name'), 'Beta');
    await user.type(within(form).getByLabelText('Code'), 'beta');
    await user.type(within(form).getByLabelText('Domain'), 'beta');
    await user.type(within(form).getByLabelText('Maximum storage'), '512');
    await user.selectOptions(within(form).getByLabelText('Unit'), 'MB');
    await user.type(within(form).getByLabelText('Primary'), '#7c3aed');
    await user.click(within(form).getByRole('button', { name: 'Create company' }));
    expect(await within(form).findByTestId('field-error')).toHaveTextContent('is already taken');
    expect(within(form).getByLabelText('Domain')).toHaveAttribute('aria-invalid', 'true');
    const post = sent.find((request) => request.method === 'POST')!;
    expect(post.body).toMatchObject({
      name: 'Beta',
      code: 'BETA',
      domain: 'beta',
      maxStorage: 512 * 1024 ** 2,
      maxUsers: null,
      settings: { theme: { primary: '#7c3aed' } },
    });

    conflict = false;
    await user.click(within(form).getByRole('button', { name: 'Create company' }));
    expect(await screen.findByTestId('api-key-value')).toHaveValue('esk_secretkey1234');
    expect(screen.getByTestId('api-key-current')).toHaveTextContent('****1234');
    expect(screen.getByRole('heading', { name: 'Edit company: Beta' })).toBeInTheDocument();
    expect(screen.getByTestId('company-site-link')).toHaveAttribute('href', 'http://beta.localhost/');
  });

  it('asks before deleting, then shows the company as deleting with the services still working', async () => {
    let deleting = false;
    const sent = gateway(
      () => ({
        status: 200,
        body: page([
          deleting ? company({ status: 'deleting', pendingServices: ['file', 'transcription'] }) : company(),
        ]),
      }),
      (request) => {
        if (request.method !== 'DELETE') return undefined;
        deleting = true;
        return { status: 202, body: { message: 'Deleting' } };
      },
    );
    const user = userEvent.setup();
    renderPage(<CompaniesPage />, { path: '/companies', url: '/companies', role: 'HOST_ADMIN', companyId: null });
    await user.click(await screen.findByRole('button', { name: 'Delete Acme' }));
    expect(screen.getByRole('dialog', { name: 'Are you sure you want to delete this company?' })).toBeInTheDocument();
    await user.click(screen.getByTestId('confirm-yes'));
    expect(await screen.findByText('Deleting…')).toBeInTheDocument();
    expect(screen.getByText('Waiting for: file, transcription')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete Acme' })).toBeNull();
    expect(sent.find((request) => request.method === 'DELETE')!.path).toBe(`/api/companies/${company()._id}`);
  });

  it('uploads a logo and says plainly when the server refuses one', async () => {
    let refuse = true;
    const sent = gateway(
      () => ({ status: 200, body: page([company()]) }),
      (request) => {
        if (request.path !== '/api/companies/upload') return undefined;
        return refuse
          ? { status: 415, body: { message: 'Unsupported Media Type' } }
          : { status: 201, body: { url: '/api/uploads/acme/logo.png' } };
      },
    );
    const user = userEvent.setup();
    renderPage(<CompaniesPage />, { path: '/companies', url: '/companies', role: 'HOST_ADMIN', companyId: null });
    await user.click(await screen.findByRole('button', { name: 'Edit Acme' }));
    const logo = screen.getByTestId('brand-image-logo');
    const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'logo.png', { type: 'image/png' });
    await user.upload(within(logo).getByLabelText('Upload Logo'), file);
    expect(await within(logo).findByRole('alert')).toHaveTextContent(
      'This file type is not accepted: use PNG, JPEG, WebP or ICO.',
    );
    expect(Object.fromEntries(sent.find((request) => request.path === '/api/companies/upload')!.query)).toEqual({
      companyId: company()._id,
      kind: 'logo',
    });
    refuse = false;
    await user.upload(within(logo).getByLabelText('Upload Logo'), file);
    expect(await within(logo).findByRole('img', { name: 'Logo' })).toHaveAttribute('src', '/api/uploads/acme/logo.png');
  });
});
