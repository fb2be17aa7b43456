import { REDACTED_HEADER, type ClientSaved, type FileTagsAnswer, type TaskSaved } from '@earshot/contracts';
import { createTestStack, type TestStack } from '@earshot/kit/testing';
import { billingService } from '@earshot/billing-service';
import { fileService } from '@earshot/file-service';
import { tasksService } from '@earshot/tasks-service';
import { tenantService } from '@earshot/tenant-service';
import { transcriptionService } from '@earshot/transcription-service';
import { uploadRequest, wavHeader } from '../../../services/file/test/helpers';

// With a company's redaction on, a card number typed into a tag, a task or a client is hidden
// before it is stored, in every form a person may type it, on creating and on changing (so a label
// cannot be edited back into a number). The tenant sets the policy; the file and tasks services
// learn it from company.policies_changed. Each answer tells the person how many spans were hidden
// (`redacted`; a tag rename, whose answer is a list, in the x-redacted header). A company with
// redaction off keeps what was typed, and its answers are as they always were.

/** A Luhn-valid Visa number; its digit groups must be nowhere once it is typed. */
const CARD = ['4539', '1488', '0343', '6467'];
const SECRET = new RegExp(`${CARD.join('|')}|[０-９]`);
const LABEL = '[card number]';

/** The forms a card number is typed in that the detectors must find, each hidden whole. */
const FORMS: [string, string][] = [
  ['glued to a word and a comma', `card:${CARD.join('')},`],
  ['glued to a sign', `card#${CARD.join('')}`],
  ['spaced and glued to a word', `card:${CARD.join(' ')}`],
  ['joined by U+2010 hyphens', CARD.join('\u2010')],
  ['joined by Unicode dashes', `${CARD[0]}\u2010${CARD[1]}\u2013${CARD[2]}\u2014${CARD[3]}`],
  ['joined by other dashes', `${CARD[0]}\u2011${CARD[1]}\u2012${CARD[2]}\u2015${CARD[3]}`],
  ['joined by minus signs', CARD.join('\u2212')],
  ['in full-width digits', CARD.join('').replace(/\d/g, (d) => String.fromCharCode(0xff10 + Number(d)))],
];

let stack: TestStack;
let host: string;
const redacting = { id: '', user: '', admin: '' };
const plain = { id: '', user: '', admin: '' };
const silence = Buffer.concat([wavHeader(32_000), Buffer.alloc(32_000)]);

async function createCompany(code: string): Promise<string> {
  const res = await stack.as(host, {
    method: 'POST',
    url: '/api/companies',
    payload: { name: code, code, domain: code.toLowerCase() },
  });
  expect(res.statusCode).toBe(201);
  return (res.json() as { _id: string })._id;
}

async function upload(token: string): Promise<string> {
  const res = await stack.as(token, uploadRequest(silence, 'call.wav'));
  expect(res.statusCode).toBe(201);
  await stack.settle();
  return (res.json() as { _id: string })._id;
}

/** What the database holds for a company, as text: no form of the number may be in it. */
async function stored(companyId: string): Promise<string> {
  const rows = await Promise.all([
    stack.database.query(`select tag from file.file_tags where company_id = $1`, [companyId]),
    stack.database.query(`select title, description from tasks.tasks where company_id = $1`, [companyId]),
    stack.database.query(
      `select name, organisation, email, phone, external_id, notes from tenant.clients where company_id = $1`,
      [companyId],
    ),
  ]);
  const text = JSON.stringify(rows);
  // Something of the company's was read: an empty answer would pass every check below.
  expect(text).toMatch(/[a-z]/);
  return text;
}

beforeAll(async () => {
  stack = await createTestStack([tenantService, billingService, fileService, tasksService, transcriptionService], {
    TRANSCRIPTION_WORKER: 'false',
  });
  host = await stack.tokenFor('HOST_ADMIN', null);
  redacting.id = await createCompany('REDACTS');
  plain.id = await createCompany('PLAIN');
  const policies = await stack.as(host, {
    method: 'PUT',
    url: `/api/companies/${redacting.id}/policies`,
    payload: {
      redaction: 'text',
      keepOriginal: false,
      encryption: false,
      retention: { recordingsDays: null, chatsDays: null, auditDays: null },
    },
  });
  expect(policies.statusCode).toBe(200);
  await stack.settle();
  for (const company of [redacting, plain]) {
    company.user = await stack.tokenFor('USER', company.id);
    company.admin = await stack.tokenFor('ADMIN', company.id);
  }
}, 120_000);
afterAll(async () => stack?.close());

describe.each(FORMS)('a card number %s', (form, typed) => {
  test('in a tag: set on a recording or renamed into, it is stored as the label', async () => {
    const fileId = await upload(redacting.user);
    const set = await stack.as(redacting.user, {
      method: 'PUT',
      url: `/api/files/${fileId}/tags`,
      payload: { tags: [typed, 'billing'] },
    });
    expect(set.statusCode).toBe(200);
    const { tags, redacted } = set.json() as FileTagsAnswer;
    expect(redacted).toBe(1);
    expect(tags).toContain('billing');
    expect(tags.some((tag) => tag.includes(LABEL))).toBe(true);

    const renamed = await stack.as(redacting.admin, {
      method: 'PUT',
      url: `/api/tags/billing`,
      payload: { name: `billing ${typed}` },
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.headers[REDACTED_HEADER]).toBe('1');
    const names = JSON.stringify(renamed.json());
    expect(names).toContain(`billing `);
    expect(names).toContain(LABEL);
    expect(names).not.toMatch(SECRET);
    await stack.settle();
    expect(await stored(redacting.id)).not.toMatch(SECRET);
  });

  test('in a task: its title and description, created and changed, are stored with the label', async () => {
    const created = await stack.as(redacting.user, {
      method: 'POST',
      url: '/api/tasks',
      payload: { title: `Refund ${typed}`, description: `The customer read ${typed} twice` },
    });
    expect(created.statusCode).toBe(201);
    const task = created.json() as TaskSaved;
    expect(task.redacted).toBe(2);
    expect(task.title).toContain(LABEL);
    expect(task.description).toContain(LABEL);
    expect(task.description).toMatch(/^The customer read .*\[card number\].* twice$/);

    // The label cannot be edited back into the number.
    const changed = await stack.as(redacting.user, {
      method: 'PUT',
      url: `/api/tasks/${task._id}`,
      payload: { title: task.title.replace(LABEL, CARD.join(' ')), description: typed },
    });
    expect(changed.statusCode).toBe(200);
    const saved = changed.json() as TaskSaved;
    expect(saved).toMatchObject({ redacted: 2, title: expect.stringContaining(LABEL) });
    expect(saved.description).toContain(LABEL);
    expect(await stored(redacting.id)).not.toMatch(SECRET);
  });

  test('in a client: its name, organisation, external id, notes and phone field are stored with the label; the e-mail stays an address', async () => {
    const created = await stack.as(redacting.admin, {
      method: 'POST',
      url: '/api/clients',
      payload: {
        name: `Dana ${typed}`,
        organisation: `Org ${typed}`,
        notes: `Paid with ${typed}\nCall back`,
        email: 'dana@example.test',
        phone: CARD.join(' '),
        // Unique in the company, and letters only: a random id's digits could be read as a number too.
        externalId: `crm-${form.replace(/[^a-z]+/gi, '-')} ${typed}`,
      },
    });
    expect(created.statusCode).toBe(201);
    const client = created.json() as ClientSaved;
    expect(client.redacted).toBe(5);
    for (const field of ['name', 'organisation', 'notes', 'externalId', 'phone'] as const)
      expect(client[field]).toContain(LABEL);
    expect(client.notes).toMatch(/\nCall back$/);
    expect(client.email).toBe('dana@example.test');

    const changed = await stack.as(redacting.admin, {
      method: 'PUT',
      url: `/api/clients/${client._id}`,
      payload: { notes: client.notes!.replace(LABEL, CARD.join('')), name: typed },
    });
    expect(changed.statusCode).toBe(200);
    const saved = changed.json() as ClientSaved;
    expect(saved).toMatchObject({ redacted: 2, name: expect.stringContaining(LABEL) });
    expect(saved.notes).toContain(LABEL);
    expect(await stored(redacting.id)).not.toMatch(SECRET);
  });
});

test("a client's phone field keeps a phone number, its other fields hide one", async () => {
  const res = await stack.as(redacting.admin, {
    method: 'POST',
    url: '/api/clients',
    payload: { name: 'Mart', phone: '+372 5123 4567', notes: 'or tel:+37251234567' },
  });
  expect(res.statusCode).toBe(201);
  expect(res.json()).toMatchObject({ phone: '+372 5123 4567', notes: 'or tel:[phone number]', redacted: 1 });
});

test('with redaction on, a write in which nothing was hidden answers as before', async () => {
  const fileId = await upload(redacting.user);
  const tags = await stack.as(redacting.user, {
    method: 'PUT',
    url: `/api/files/${fileId}/tags`,
    payload: { tags: ['order 1234'] },
  });
  expect(tags.json()).toEqual({ fileId, tags: ['order 1234'] });
  const renamed = await stack.as(redacting.admin, {
    method: 'PUT',
    url: '/api/tags/order%201234',
    payload: { name: 'order 5678' },
  });
  expect(renamed.statusCode).toBe(200);
  expect(renamed.headers).not.toHaveProperty(REDACTED_HEADER);
  const task = await stack.as(redacting.user, { method: 'POST', url: '/api/tasks', payload: { title: 'Call back' } });
  expect(task.json()).not.toHaveProperty('redacted');
  const client = await stack.as(redacting.admin, { method: 'POST', url: '/api/clients', payload: { name: 'Liis' } });
  expect(client.json()).not.toHaveProperty('redacted');
});

test('a company with redaction off keeps tags, tasks and clients as typed', async () => {
  const typed = `card:${CARD.join(' ')}`;
  const fileId = await upload(plain.user);
  const tags = await stack.as(plain.user, {
    method: 'PUT',
    url: `/api/files/${fileId}/tags`,
    payload: { tags: [typed] },
  });
  expect(tags.json()).toEqual({ fileId, tags: [typed] });
  const task = await stack.as(plain.user, {
    method: 'POST',
    url: '/api/tasks',
    payload: { title: `Refund ${typed}`, description: typed },
  });
  expect(task.json()).toMatchObject({ title: `Refund ${typed}`, description: typed });
  expect(task.json()).not.toHaveProperty('redacted');
  const client = await stack.as(plain.admin, {
    method: 'POST',
    url: '/api/clients',
    payload: { name: `Dana ${typed}`, notes: typed, phone: CARD.join(' ') },
  });
  expect(client.json()).toMatchObject({ name: `Dana ${typed}`, notes: typed, phone: CARD.join(' ') });
  expect(client.json()).not.toHaveProperty('redacted');
  expect(await stored(plain.id)).toMatch(SECRET);
});
