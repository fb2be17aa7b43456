/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// The company dialog's data policies with the app's store and RTK Query API; only `fetch` is faked.
import { describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CompanyPolicies } from '@earshot/contracts';
import { fakeGateway, json, renderPage } from '../../../test/fake-gateway';
import CompaniesPage from './companies-page';
import type { Company } from './model';

const ID = '00000000-0000-4000-8000-0000000000c2';
const company: Company = {
  _id: ID,
  name: 'Acme',
  code: 'ACME',
  domain: 'acme',
  type: 'business',
  status: 'active',
  maxUsers: 10,
  maxStorage: null,
  language: 'en',
  encryption: false,
  apiKey: null,
  partnerCompanyId: null,
  favIcon: null,
  logo: null,
  mainPageLogo: null,
  settings: { theme: {} },
  balance: 0,
  createdAt: '2026-01-02T10:00:00.000Z',
  updatedAt: '2026-01-02T10:00:00.000Z',
  userCount: 3,
  storageUsed: 0,
  pendingServices: [],
};

function gateway(state: { policies: CompanyPolicies; refuse?: string; masterKey?: boolean }) {
  return fakeGateway((call) => {
    if (call.path === '/api/companies' && call.method === 'GET')
      return json({ items: [company], page: 1, pageSize: 20, total: 1, totalPages: 1 });
    if (call.path === `/api/companies/${ID}/policies` && call.method === 'GET') return json(state.policies);
    if (call.path === `/api/companies/${ID}/encryption`) {
      return json({
        encryption: state.policies.encryption,
        masterKeyConfigured: state.masterKey ?? true,
        services: [
          {
            service: 'file',
            state: state.policies.encryption ? 'running' : 'idle',
            done: 0,
            total: state.policies.encryption ? 300 : 0,
            updatedAt: null,
          },
        ],
      });
    }
    if (call.path === `/api/companies/${ID}/policies` && call.method === 'PUT') {
      if (state.refuse) {
        // As the kit answers a validation failure: the first field in the message, each in details.
        const field = /Invalid (body\.[\w.]+):/.exec(state.refuse)?.[1];
        const details = field ? [{ field, message: state.refuse.split(': ').slice(1).join(': ') }] : undefined;
        return json({ message: state.refuse, code: 'VALIDATION_FAILED', details }, 400);
      }
      state.policies = call.body as CompanyPolicies;
      return json(state.policies);
    }
    return undefined;
  });
}

const start: CompanyPolicies = {
  redaction: 'off',
  keepOriginal: false,
  encryption: false,
  retention: { recordingsDays: null, chatsDays: 30, auditDays: null },
};

/** The companies page as the platform administrator, with Acme's dialog open at its policies. */
async function openPolicies(state: Parameters<typeof gateway>[0]) {
  const sent = gateway(state);
  const user = userEvent.setup();
  renderPage(<CompaniesPage />, { path: '/companies', url: '/companies', role: 'HOST_ADMIN', companyId: null });
  await user.click(await screen.findByRole('button', { name: 'Edit Acme' }));
  return { sent, user, form: await screen.findByTestId('policies-form') };
}

describe('company data policies', () => {
  it('shows the stored policies and saves the redaction mode and retention, blank meaning forever', async () => {
    const { sent, user, form } = await openPolicies({ policies: start });
    expect(within(form).getByRole('heading', { name: 'Data policies' })).toBeInTheDocument();
    await waitFor(() => expect(within(form).getByTestId('policies-chatsDays')).toHaveValue('30'));
    // Keeping originals needs encryption: its box waits for encryption's. Encryption may be turned on.
    expect(within(form).getByLabelText('Keep the unredacted original')).toBeDisabled();
    expect(within(form).getByLabelText('Encryption at rest (recordings)')).toBeEnabled();
    await user.selectOptions(within(form).getByTestId('policies-redaction'), 'text_audio');
    await user.type(within(form).getByTestId('policies-auditDays'), '400');
    await user.clear(within(form).getByTestId('policies-chatsDays'));
    await user.click(within(form).getByRole('button', { name: 'Save policies' }));
    expect(await screen.findByText('Policies saved')).toBeInTheDocument();
    expect(sent.find((call) => call.method === 'PUT')?.body).toEqual({
      redaction: 'text_audio',
      keepOriginal: false,
      encryption: false,
      retention: { recordingsDays: null, chatsDays: null, auditDays: 400 },
    });
  });

  it('turns encryption on; once on, the box stays ticked and cannot be unticked, and each service’s progress shows', async () => {
    const { sent, user, form } = await openPolicies({ policies: start });
    const box = within(form).getByLabelText('Encryption at rest (recordings)');
    await waitFor(() => expect(box).toBeEnabled());
    await user.click(box);
    // Irreversible, so it asks first.
    expect(screen.getByRole('dialog', { name: /It cannot be turned off again/ })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Turn on for good' }));
    expect(box).toBeChecked();
    await user.click(within(form).getByRole('button', { name: 'Save policies' }));
    expect(await screen.findByText('Policies saved')).toBeInTheDocument();
    expect(sent.find((call) => call.method === 'PUT')?.body).toMatchObject({ encryption: true });
    await waitFor(() => expect(within(form).getByLabelText('Encryption at rest (recordings)')).toBeDisabled());
    expect(within(form).getByLabelText('Encryption at rest (recordings)')).toBeChecked();
    // Saving asks for the progress again: the background pass now shows below the switch.
    expect(await within(form).findByRole('progressbar', { name: 'Recordings 0 of 300' })).toBeInTheDocument();
  });

  it('keeps originals only with encryption: ticking encryption enables the box, and both are sent', async () => {
    const { sent, user, form } = await openPolicies({ policies: start });
    const keep = within(form).getByLabelText('Keep the unredacted original');
    expect(within(form).getByText(/Needs encryption at rest/)).toBeInTheDocument();
    await waitFor(() => expect(within(form).getByLabelText('Encryption at rest (recordings)')).toBeEnabled());
    expect(keep).toBeDisabled();
    const turnOn = async () => {
      await user.click(within(form).getByLabelText('Encryption at rest (recordings)'));
      await user.click(screen.getByRole('button', { name: 'Turn on for good' }));
    };
    await turnOn();
    expect(keep).toBeEnabled();
    await user.click(keep);
    // Unticking encryption again (not yet saved) takes the original with it.
    await user.click(within(form).getByLabelText('Encryption at rest (recordings)'));
    expect(keep).not.toBeChecked();
    await turnOn();
    expect(keep).toBeChecked();
    await user.click(within(form).getByRole('button', { name: 'Save policies' }));
    expect(await screen.findByText('Policies saved')).toBeInTheDocument();
    expect(sent.find((call) => call.method === 'PUT')?.body).toMatchObject({ keepOriginal: true, encryption: true });
  });

  it('without a master key on the server, the switch is disabled and says why', async () => {
    const { form } = await openPolicies({ policies: start, masterKey: false });
    const box = within(form).getByLabelText('Encryption at rest (recordings)');
    await waitFor(() => expect(box).toHaveAccessibleDescription(/ENCRYPTION_MASTER_KEY/));
    expect(box).toBeDisabled();
  });

  it('cancelling the question leaves encryption off', async () => {
    const { sent, user, form } = await openPolicies({ policies: start });
    const box = within(form).getByLabelText('Encryption at rest (recordings)');
    await waitFor(() => expect(box).toBeEnabled());
    await user.click(box);
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(box).not.toBeChecked();
    await user.click(within(form).getByRole('button', { name: 'Save policies' }));
    expect(await screen.findByText('Policies saved')).toBeInTheDocument();
    expect(sent.find((call) => call.method === 'PUT')?.body).toMatchObject({ encryption: false });
  });

  it('says next to the field, in words, what a retention must be, and sends nothing until it is', async () => {
    const { sent, user, form } = await openPolicies({ policies: start });
    await waitFor(() => expect(within(form).getByRole('button', { name: 'Save policies' })).toBeEnabled());
    const audit = within(form).getByTestId('policies-auditDays');
    await user.type(audit, '100');
    await user.click(within(form).getByRole('button', { name: 'Save policies' }));
    expect(audit).toHaveAccessibleDescription('Enter whole days from 365 to 36500, or leave it blank to keep forever');
    expect(audit).toHaveAttribute('aria-invalid', 'true');
    expect(sent.filter((call) => call.method === 'PUT')).toEqual([]);
    expect(screen.queryByText(/expected number/)).toBeNull();
    await user.clear(audit);
    await user.type(audit, '400');
    await user.click(within(form).getByRole('button', { name: 'Save policies' }));
    expect(await screen.findByText('Policies saved')).toBeInTheDocument();
    expect(audit).toHaveAttribute('aria-invalid', 'false');
  });

  it('puts a refusal of the server that names a retention on that field; a later success clears the failure', async () => {
    const state: Parameters<typeof gateway>[0] = {
      policies: start,
      refuse: 'Invalid body.retention.chatsDays: Too small: expected number to be >=1',
    };
    const { user, form } = await openPolicies(state);
    await waitFor(() => expect(within(form).getByRole('button', { name: 'Save policies' })).toBeEnabled());
    await user.click(within(form).getByRole('button', { name: 'Save policies' }));
    expect(await screen.findByText('The policies could not be saved')).toBeInTheDocument();
    expect(within(form).getByTestId('policies-chatsDays')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByText(/expected number/)).toBeNull();
    state.refuse = undefined;
    await user.click(within(form).getByRole('button', { name: 'Save policies' }));
    expect(await screen.findByText('Policies saved')).toBeInTheDocument();
    expect(screen.queryByText('The policies could not be saved')).toBeNull();
  });

  it('says why the server refused when it names no field', async () => {
    const { user, form } = await openPolicies({
      policies: start,
      refuse: 'Encryption needs ENCRYPTION_MASTER_KEY on the server',
    });
    await waitFor(() => expect(within(form).getByRole('button', { name: 'Save policies' })).toBeEnabled());
    await user.click(within(form).getByRole('button', { name: 'Save policies' }));
    expect(await screen.findByText('The policies could not be saved')).toBeInTheDocument();
    expect(screen.getByText(/ENCRYPTION_MASTER_KEY/)).toBeInTheDocument();
  });
});
