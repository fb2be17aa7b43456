/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// The custom GPT list and form with the app's store and RTK Query API; only the network is faked.
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeGateway, json, renderPage } from '../../../test/fake-gateway';
import CustomGptCreatePage from './custom-gpt-create-page';
import CustomGptsPage from './custom-gpts-page';
import type { CustomGpt } from './model';

const COMPANY = 'c0000000-0000-4000-8000-000000000001';
const PERSON = 'a0000000-0000-4000-8000-000000000002';
const MODEL = 'e0000000-0000-4000-8000-000000000003';
const gpt = (over: Partial<CustomGpt>): CustomGpt => ({
  _id: 'd0000000-0000-4000-8000-000000000001',
  name: 'Support helper',
  description: 'Answers from the handbook',
  avatar: null,
  instructions: 'Be brief.',
  modelId: null,
  starters: [],
  searchTranscripts: false,
  visibility: 'company',
  userIds: [],
  enabled: true,
  scope: 'company',
  companyIds: [],
  companyId: COMPANY,
  createdBy: 'me',
  createdAt: '2026-01-02T10:00:00.000Z',
  updatedAt: '2026-01-03T10:00:00.000Z',
  fileCount: 2,
  ...over,
});
const mine = gpt({});
const platform = gpt({
  _id: 'd0000000-0000-4000-8000-000000000002',
  name: 'Platform policy bot',
  scope: 'platform',
  companyId: null,
  fileCount: 0,
});
const page = (items: CustomGpt[]) => ({ items, page: 1, pageSize: 20, total: items.length, totalPages: 1 });

afterEach(() => localStorage.clear());

describe('custom GPT list', () => {
  it('an ADMIN searches, duplicates and deletes their company’s GPTs after confirming; platform GPTs are read only', async () => {
    const calls = fakeGateway((call) => {
      if (call.path === '/api/custom-gpt' && call.method === 'GET')
        return json(page(call.query.get('search') === 'policy' ? [platform] : [mine, platform]));
      if (call.path === `/api/custom-gpt/${mine._id}/duplicate`)
        return json(gpt({ _id: 'd0000000-0000-4000-8000-000000000009', name: 'Support helper (copy)' }), 201);
      if (call.path === `/api/custom-gpt/${mine._id}` && call.method === 'DELETE')
        return json({ message: 'Custom GPT deleted' });
      return undefined;
    });
    const user = userEvent.setup();
    renderPage(<CustomGptsPage />, { path: '/custom-gpts', url: '/custom-gpts', role: 'ADMIN' });
    const table = await screen.findByTestId('gpts-table');
    const row = (await within(table).findByText('Support helper')).closest('tr')!;
    expect(within(row).getByText('Company')).toBeInTheDocument();
    expect(within(row).getByText('Whole company')).toBeInTheDocument();
    const platformRow = within(table).getByText('Platform policy bot').closest('tr')!;
    expect(within(platformRow).getByText('Platform')).toBeInTheDocument();
    expect(within(platformRow).getByText('Read only')).toBeInTheDocument();
    expect(within(platformRow).queryByRole('button', { name: /Actions for/ })).toBeNull();
    await user.click(within(row).getByRole('button', { name: 'Actions for Support helper' }));
    expect(screen.getByRole('menuitem', { name: 'Edit' })).toHaveAttribute('href', `/custom-gpts/${mine._id}/edit`);

    await user.click(screen.getByRole('menuitem', { name: 'Duplicate' }));
    expect(await screen.findByText('Made a copy: Support helper (copy)')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.path)).toEqual([
      `/api/custom-gpt/${mine._id}/duplicate`,
    ]);

    await user.click(within(row).getByRole('button', { name: 'Actions for Support helper' }));
    await user.click(screen.getByTestId('delete-gpt'));
    expect(
      screen.getByText('Delete Support helper with its knowledge files? Conversations with it keep their messages.'),
    ).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    await user.click(screen.getByTestId('confirm-yes'));
    expect(await screen.findByText('Custom GPT deleted')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'DELETE').map((call) => call.path)).toEqual([
      `/api/custom-gpt/${mine._id}`,
    ]);

    await user.type(screen.getByRole('searchbox'), 'policy{Enter}');
    await waitFor(() => expect(within(table).queryByText('Support helper')).toBeNull());
    expect(within(table).getByText('Platform policy bot')).toBeInTheDocument();
    expect(
      calls
        .filter((call) => call.path === '/api/custom-gpt' && call.method === 'GET')
        .at(-1)!
        .query.get('search'),
    ).toBe('policy');
  });
});

describe('custom GPT form', () => {
  it('shows the schema’s messages at their fields, then the server’s, and sends blank fields as none', async () => {
    let answer = json(
      {
        message: 'Validation failed',
        code: 'VALIDATION_FAILED',
        details: [{ field: 'body.avatar', message: 'must be an uploaded picture or an https:// URL' }],
      },
      400,
    );
    const calls = fakeGateway((call) => {
      if (call.path === '/api/chat/models')
        return json({ models: [{ _id: MODEL, name: 'Fast model', isDefault: true }], builtIn: false });
      if (call.path === '/api/users/dropdown') return json([{ _id: PERSON, name: 'Una User', email: 'una@acme.test' }]);
      if (call.path === '/api/custom-gpt' && call.method === 'POST') return answer;
      return undefined;
    });
    const user = userEvent.setup();
    renderPage(<CustomGptCreatePage />, { path: '/custom-gpts/create', url: '/custom-gpts/create', role: 'ADMIN' });
    const form = await screen.findByTestId('gpt-form');
    // An ADMIN makes their company's GPT: no offer to companies.
    expect(within(form).queryByText('Offered to')).toBeNull();

    await user.click(within(form).getByLabelText('Only the people I choose'));
    await user.click(within(form).getByRole('button', { name: 'Create GPT' }));
    await waitFor(() => expect(within(form).getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true'));
    expect(within(form).getByLabelText('Instructions')).toHaveAttribute('aria-invalid', 'true');
    expect(within(form).getAllByText('Required')).toHaveLength(2);

    await user.type(within(form).getByLabelText('Name'), 'Handbook');
    await user.type(within(form).getByLabelText('Instructions'), 'Answer from the handbook.');
    await user.click(within(form).getByRole('button', { name: 'Create GPT' }));
    // The contracts' rule (chosen people need at least one), in the page's words.
    expect(await within(form).findByText('Choose at least one person')).toBeInTheDocument();
    await user.click(await within(form).findByRole('checkbox', { name: 'Una User' }));
    await user.selectOptions(within(form).getByLabelText('Chat model'), 'Fast model');
    for (let n = 0; n < 6; n += 1) await user.click(within(form).getByTestId('add-starter'));
    expect(within(form).getByTestId('add-starter')).toBeDisabled();
    await user.type(within(form).getByLabelText('Starter 1'), 'What is the refund policy?');
    await user.click(within(form).getByRole('button', { name: 'Remove starter 2' }));
    await user.type(within(form).getByLabelText('Picture address'), 'javascript:alert(1)');
    await user.click(within(form).getByRole('button', { name: 'Create GPT' }));
    // The contracts' schema refuses the address before anything is sent.
    await waitFor(() => expect(within(form).getByLabelText('Picture address')).toHaveAttribute('aria-invalid', 'true'));
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    await user.clear(within(form).getByLabelText('Picture address'));
    await user.type(within(form).getByLabelText('Picture address'), 'https://cdn.example.com/bot.png');
    await user.click(within(form).getByRole('button', { name: 'Create GPT' }));
    expect(await within(form).findByText('must be an uploaded picture or an https:// URL')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'POST')!.body).toEqual({
      name: 'Handbook',
      description: null,
      avatar: 'https://cdn.example.com/bot.png',
      instructions: 'Answer from the handbook.',
      modelId: MODEL,
      starters: ['What is the refund policy?'],
      searchTranscripts: false,
      visibility: 'users',
      userIds: [PERSON],
      enabled: true,
    });

    answer = json(gpt({ _id: 'd0000000-0000-4000-8000-000000000005', name: 'Handbook' }), 201);
    await user.click(within(form).getByRole('button', { name: 'Create GPT' }));
    // Created: on to its edit page, where the knowledge files are added.
    expect(await screen.findByText('elsewhere')).toBeInTheDocument();
  });

  it('a HOST_ADMIN offers a platform GPT to chosen companies, and must choose one', async () => {
    const calls = fakeGateway((call) => {
      if (call.path === '/api/chat/models') return json({ models: [], builtIn: true });
      if (call.path === '/api/companies/dropdown') return json([{ _id: COMPANY, name: 'Acme' }]);
      if (call.path === '/api/custom-gpt' && call.method === 'POST')
        return json(gpt({ scope: 'platform', companyIds: [COMPANY] }), 201);
      return undefined;
    });
    const user = userEvent.setup();
    renderPage(<CustomGptCreatePage />, {
      path: '/custom-gpts/create',
      url: '/custom-gpts/create',
      role: 'HOST_ADMIN',
      companyId: null,
    });
    const form = await screen.findByTestId('gpt-form');
    await user.type(within(form).getByLabelText('Name'), 'Policy');
    await user.type(within(form).getByLabelText('Instructions'), 'Quote the policy.');
    await user.click(within(form).getByLabelText('The companies I choose'));
    await user.click(within(form).getByRole('button', { name: 'Create GPT' }));
    expect(await within(form).findByText('Choose at least one company')).toBeInTheDocument();
    await user.click(await within(form).findByRole('checkbox', { name: 'Acme' }));
    await user.click(within(form).getByRole('button', { name: 'Create GPT' }));
    await screen.findByText('elsewhere');
    expect(calls.find((call) => call.method === 'POST')!.body).toMatchObject({
      visibility: 'company',
      userIds: [],
      companyIds: [COMPANY],
      modelId: null,
    });
  });
});
