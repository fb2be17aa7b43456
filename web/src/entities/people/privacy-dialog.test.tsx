/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// An ADMIN's export and erasure of a person, with the app's store and RTK Query API;
// only `fetch` is faked. Erasing names the person, needs a recordings choice and their e-mail or
// name typed, then reports per service in words; a legal hold's 409 is shown in the dialog; a
// USER or CALLER gets no control.
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import type { PrivacyJobDto } from '@earshot/contracts';
import type { Role } from '@earshot/contracts/constants';
import { fakeGateway, json, renderPage, type Call } from '../../../test/fake-gateway';
import type { PrivacyPerson } from './privacy-api';
import { PrivacyButtons, usePrivacyActions } from './privacy-actions';
import { confirmsPerson } from './privacy-dialog';

const JOB = 'a0000000-0000-4000-8000-000000000002';
const ANN: PrivacyPerson = { kind: 'user', id: 'u1', name: 'Ann Lee', email: 'ann@example.com' };
const NORTHWIND: PrivacyPerson = {
  kind: 'client',
  id: 'b0000000-0000-4000-8000-000000000001',
  name: 'Northwind',
  email: null,
};
const HELD = 'This person is under a legal hold: nothing about them can be erased until it is lifted';
const ERASED: PrivacyJobDto = {
  jobId: JOB,
  kind: 'erase',
  subject: { kind: 'user', id: ANN.id },
  status: 'done',
  pendingServices: [],
  download: null,
  createdAt: '2026-11-26T06:00:00.000Z',
  finishedAt: '2026-11-26T06:00:03.000Z',
  position: null,
  parts: [
    { service: 'auth', counts: { accounts: 1, sessions: 2 } },
    { service: 'chat', counts: { conversations: 3, messages: 12 } },
    { service: 'file', counts: { recordingsKept: 4 } },
    { service: 'transcription', counts: { wordsBlanked: 4 } },
  ],
};

function gateway(erase: (call: Call) => ReturnType<typeof json> = () => json({ jobId: JOB }, 202)) {
  return fakeGateway((call) => {
    if (call.path === '/api/privacy/erase' && call.method === 'POST') return erase(call);
    if (call.path === '/api/privacy/export' && call.method === 'POST') return json({ jobId: JOB }, 202);
    if (call.path === `/api/privacy/jobs/${JOB}`) return json(ERASED);
    return undefined;
  });
}

/** A row's menu as the users and clients pages build it: the entries, then the dialog. */
function Row({
  person,
  onErased,
}: {
  person: PrivacyPerson;
  onErased?: (person: PrivacyPerson) => void;
}): ReactElement {
  const privacy = usePrivacyActions({ onErased });
  return (
    <div>
      {privacy.entries(person).map((entry) => (
        <button key={entry.key} type="button" onClick={entry.onSelect}>
          {entry.label}
        </button>
      ))}
      {privacy.dialog}
    </div>
  );
}

const renderAs = (role: Role, element: ReactElement) => renderPage(element, { path: '/users', url: '/users', role });

afterEach(() => localStorage.clear());

describe('erasing a person', () => {
  it('names the person, needs a recordings choice and their e-mail or name, then reports what each service removed', async () => {
    const calls = gateway();
    const onErased = jest.fn();
    const user = userEvent.setup();
    renderAs('ADMIN', <Row person={ANN} onErased={onErased} />);
    await user.click(screen.getByRole('button', { name: 'Erase…' }));
    const dialog = await screen.findByTestId('privacy-dialog');
    expect(within(dialog).getByRole('heading', { name: 'Erase Ann Lee' })).toBeInTheDocument();
    const submit = within(dialog).getByRole('button', { name: 'Erase for good' });
    expect(submit).toBeDisabled();

    await user.click(within(dialog).getByRole('radio', { name: /Keep them under the company/ }));
    expect(
      within(dialog).getByText('The recordings and transcripts stay with the company, with Ann Lee taken off them.'),
    ).toBeInTheDocument();
    const confirm = within(dialog).getByLabelText('To confirm, type ann@example.com or Ann Lee');
    await user.type(confirm, 'Ann');
    expect(submit).toBeDisabled();
    await user.clear(confirm);
    await user.type(confirm, ' ANN@example.com ');
    expect(submit).toBeEnabled();
    await user.click(submit);

    expect(await within(dialog).findByText('Ann Lee was erased.')).toBeInTheDocument();
    expect(calls.find((call) => call.path === '/api/privacy/erase')?.body).toEqual({
      userId: 'u1',
      recordings: 'keep',
    });
    const rows = within(dialog)
      .getAllByTestId('privacy-part')
      .map((row) => row.textContent);
    expect(rows).toEqual([
      'AccountAccounts: 1 · Sessions: 2',
      'ChatsConversations: 3 · Messages: 12',
      'RecordingsRecordings kept without the person: 4',
      // A kind the console has no words for shows as the server names it.
      'TranscriptswordsBlanked: 4',
    ]);
    expect(within(dialog).getByRole('heading', { name: 'What each service removed' })).toBeInTheDocument();
    expect(onErased).not.toHaveBeenCalled();

    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByTestId('privacy-dialog')).toBeNull());
    expect(onErased).toHaveBeenCalledWith(ANN);
  });

  it('shows the legal hold’s refusal in the dialog, which stays open with the choices made', async () => {
    gateway(() => json({ message: HELD, code: 'CONFLICT' }, 409));
    const user = userEvent.setup();
    renderAs('HOST_ADMIN', <Row person={ANN} />);
    await user.click(screen.getByRole('button', { name: 'Erase…' }));
    const dialog = await screen.findByTestId('privacy-dialog');
    await user.click(within(dialog).getByRole('radio', { name: /Delete them/ }));
    await user.type(within(dialog).getByLabelText(/To confirm/), 'ann lee');
    await user.click(within(dialog).getByRole('button', { name: 'Erase for good' }));
    expect(await within(dialog).findByTestId('privacy-erase-error')).toHaveTextContent(HELD);
    expect(within(dialog).getByRole('radio', { name: /Delete them/ })).toBeChecked();
    expect(within(dialog).queryByTestId('privacy-job')).toBeNull();
  });

  it('a client contact without an e-mail address is confirmed by name, and cancelling erases nothing', async () => {
    const calls = gateway();
    const onErased = jest.fn();
    const user = userEvent.setup();
    renderAs('ADMIN', <Row person={NORTHWIND} onErased={onErased} />);
    await user.click(screen.getByRole('button', { name: 'Erase…' }));
    const dialog = await screen.findByTestId('privacy-dialog');
    expect(within(dialog).getByText('The calls linked to Northwind')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('To confirm, type Northwind')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByTestId('privacy-dialog')).toBeNull());
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
    expect(onErased).not.toHaveBeenCalled();
  });

  it('accepts the e-mail or the name, whatever the case and spacing, and nothing else', () => {
    expect(confirmsPerson('  ann   LEE ', ANN)).toBe(true);
    expect(confirmsPerson('Ann@Example.com', ANN)).toBe(true);
    expect(confirmsPerson('ann@example', ANN)).toBe(false);
    expect(confirmsPerson('   ', { name: '', email: null })).toBe(false);
    expect(confirmsPerson('northwind', NORTHWIND)).toBe(true);
  });
});

describe('exporting a person’s data', () => {
  it('HOST_ADMIN exports a client contact from its profile buttons: the job is asked for by clientId', async () => {
    const calls = gateway();
    const user = userEvent.setup();
    renderAs('HOST_ADMIN', <PrivacyButtons person={NORTHWIND} />);
    await user.click(screen.getByRole('button', { name: 'Export data' }));
    const dialog = await screen.findByTestId('privacy-dialog');
    expect(within(dialog).getByRole('heading', { name: 'Export the data of Northwind' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Prepare the ZIP' }));
    await within(dialog).findByTestId('privacy-job');
    expect(calls.find((call) => call.path === '/api/privacy/export')?.body).toEqual({ clientId: NORTHWIND.id });
  });

  it.each(['USER', 'CALLER'] as const)('a %s gets neither control', (role) => {
    gateway();
    renderAs(
      role,
      <>
        <Row person={ANN} />
        <PrivacyButtons person={NORTHWIND} />
      </>,
    );
    expect(screen.queryByRole('button', { name: 'Export data' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Erase…' })).toBeNull();
  });
});
