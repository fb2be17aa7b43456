import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import type { SMTPServer } from 'smtp-server';
import { authService } from '@earshot/auth-service';
import { buildEnvelope, type NewEvent } from '@earshot/kit';
import { createTestStack, type TestStack } from '@earshot/kit/testing';
import {
  EMAIL_TEMPLATE_TYPES,
  SYSTEM_ACTOR,
  type EmailTemplateDto,
  type OutgoingMailDetailDto,
  type OutgoingMailDto,
} from '@earshot/contracts';
import { tenantService } from '@earshot/tenant-service';
import { mailOf, messagingService } from '@earshot/messaging-service';
import { MAX_ATTEMPTS } from '../../../services/messaging/src/services/mail/sender';
import { smtpUrl, startSmtp, type Received } from '../../../services/messaging/test/smtp';

// E-mail end to end: the auth service announces a reset, the messaging service queues the mail in
// that event's transaction and its sender hands it to a real SMTP server (STARTTLS + AUTH, on
// loopback) or, without one, writes an .eml file. The sender's loop stays off: each test runs
// a round itself, and retries are made due by backdating them in SQL.
const PASSWORD = 'correct horse battery';

async function companyOf(stack: TestStack, host: string, fields: Record<string, unknown>): Promise<string> {
  const res = await stack.as(host, { method: 'POST', url: '/api/companies', payload: fields });
  expect(res.statusCode).toBe(201);
  await stack.settle();
  return (res.json() as { _id: string })._id;
}

async function userOf(
  stack: TestStack,
  host: string,
  email: string,
  companyId: string,
  firstName = 'Ada',
): Promise<string> {
  const res = await stack.as(host, {
    method: 'POST',
    url: '/api/users/register',
    payload: { email, firstName, lastName: 'Lovelace', role: 'USER', companyId, password: PASSWORD },
  });
  expect(res.statusCode).toBe(201);
  await stack.settle();
  return (res.json() as { _id: string })._id;
}

async function forgot(stack: TestStack, email: string): Promise<void> {
  expect(
    (await stack.app.inject({ method: 'POST', url: '/api/auth/password/forgot', payload: { email } })).statusCode,
  ).toBe(202);
  await stack.settle();
}

const sender = (stack: TestStack) => mailOf(stack.running.contexts.get('messaging') as never).sender;
const linkIn = (text: string) => /(https?:\/\/\S+\/reset-password\?token=[\w%-]+)/.exec(text)?.[1];

describe('mail through a real SMTP server', () => {
  const received: Received[] = [];
  let smtp: { server: SMTPServer; port: number };
  let stack: TestStack;
  let host: string;
  let acme: string;

  beforeAll(async () => {
    smtp = await startSmtp(received);
    stack = await createTestStack([authService, tenantService, messagingService], {
      SMTP_URL: smtpUrl(smtp.port),
      MAIL_FROM: 'Acme console <console@acme.test>',
      MAIL_WORKER: 'false',
      PUBLIC_URL: 'https://console.acme.test',
    });
    host = await stack.tokenFor('HOST_ADMIN', null);
    acme = await companyOf(stack, host, {
      name: 'Acme',
      code: 'ACME',
      domain: 'acme',
      language: 'fr',
      logo: '/uploads/branding/acme.png',
      settings: { theme: { primary: '#ff6600' } },
    });
    await userOf(stack, host, 'ada@acme.test', acme);
  });

  afterAll(async () => {
    await stack?.close();
    await new Promise<void>((resolve) => smtp?.server.close(() => resolve()));
  });

  test('a password reset arrives in the company language and brand, over STARTTLS with AUTH, and its link works once', async () => {
    await forgot(stack, 'ada@acme.test');
    expect(await sender(stack).runOnce()).toBe(1);

    expect(received).toHaveLength(1);
    const [{ user, secure, mail }] = received as [Received];
    expect([user, secure]).toEqual(['mailer', true]);
    expect(mail.subject).toBe('Réinitialisez votre mot de passe Acme');
    expect(mail.from?.value[0]).toMatchObject({ name: 'Acme console', address: 'console@acme.test' });
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.text : '').toBe('ada@acme.test');
    expect(mail.html).toContain('Bonjour Ada');
    expect(mail.html).toContain('border-top:4px solid #ff6600');
    expect(mail.html).toContain('src="https://console.acme.test/uploads/branding/acme.png"');
    const link = linkIn(mail.text ?? '');
    expect(link).toMatch(/^https:\/\/console\.acme\.test\/reset-password\?token=/);
    expect(mail.html).toContain(`href="${link!.replace(/&/g, '&amp;')}"`);

    // Once the SMTP server has it, Earshot keeps no copy of the body (it holds the link).
    const outbox = (await stack.as(host, { method: 'GET', url: '/api/email/outbox' })).json<{
      items: OutgoingMailDto[];
      smtp: boolean;
    }>();
    expect(outbox.smtp).toBe(true);
    const [listed] = outbox.items;
    expect(listed).toMatchObject({
      to: 'ada@acme.test',
      type: 'password_reset',
      status: 'sent',
      attempts: 1,
      error: null,
    });
    expect(
      (await stack.as(host, { method: 'GET', url: `/api/email/outbox/${listed!._id}` })).json<OutgoingMailDetailDto>(),
    ).toMatchObject({ html: null, text: null });

    const token = new URL(link!).searchParams.get('token')!;
    const reset = (password: string) =>
      stack.app.inject({ method: 'POST', url: '/api/auth/password/reset', payload: { token, password } });
    expect((await reset('a brand new password')).statusCode).toBe(200);
    expect((await reset('and another one')).statusCode).toBe(400);
  });

  test('a redelivered reset event queues no second mail', async () => {
    const before = (
      await stack.database.query<{ n: number }>('select count(*)::int as n from messaging.mail_messages')
    )[0]!.n;
    await forgot(stack, 'ada@acme.test');
    const [event] = await stack.database.query<{ envelope: unknown }>(
      `select envelope from auth.outbox where envelope->>'type' = 'user.password_reset_requested' order by seq desc limit 1`,
    );
    const envelope = typeof event!.envelope === 'string' ? JSON.parse(event!.envelope) : event!.envelope;
    await stack.bus.publish([{ topic: 'earshot.auth', key: envelope.companyId, envelope }]);
    await stack.settle();
    expect(
      (await stack.database.query<{ n: number }>('select count(*)::int as n from messaging.mail_messages'))[0]!.n,
    ).toBe(before + 1);
    await sender(stack).runOnce();
  });

  test('an invitation arrives in the company language with a PUBLIC_URL link that sets the first password and signs in; a redelivered event mails nothing more', async () => {
    const invite = await stack.as(host, {
      method: 'POST',
      url: '/api/users/register',
      payload: {
        email: 'ivy@acme.test',
        firstName: 'Ivy',
        lastName: 'Invited',
        role: 'USER',
        companyId: acme,
        invite: true,
      },
    });
    expect(invite.statusCode).toBe(201);
    await stack.settle();
    const before = received.length;
    expect(await sender(stack).runOnce()).toBe(1);
    expect(received).toHaveLength(before + 1);
    const { mail } = received.at(-1)!;
    expect(mail.subject).toBe('Vous êtes invité(e) à rejoindre Acme sur Earshot');
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.text : '').toBe('ivy@acme.test');
    expect(mail.html).toContain('Bonjour Ivy');
    expect(mail.text).toContain('valable 7 jours');
    const link = /(https?:\/\/\S+\/reset-password\?token=[\w%-]+&invite=1)/.exec(mail.text ?? '')?.[1];
    expect(link).toMatch(/^https:\/\/console\.acme\.test\/reset-password\?token=[\w%-]+&invite=1$/);
    expect(mail.html).toContain(`href="${link!.replace(/&/g, '&amp;')}"`);
    const [listed] = (await stack.as(host, { method: 'GET', url: '/api/email/outbox' })).json<{
      items: OutgoingMailDto[];
    }>().items;
    expect(listed).toMatchObject({ to: 'ivy@acme.test', type: 'invitation', status: 'sent' });

    // The same event delivered again queues nothing more.
    const count = async () =>
      (
        await stack.database.query<{ n: number }>(
          `select count(*)::int as n from messaging.mail_messages where type = 'invitation'`,
        )
      )[0]!.n;
    const [event] = await stack.database.query<{ envelope: unknown }>(
      `select envelope from auth.outbox where envelope->>'type' = 'user.invited' order by seq desc limit 1`,
    );
    const envelope = typeof event!.envelope === 'string' ? JSON.parse(event!.envelope) : event!.envelope;
    await stack.bus.publish([{ topic: 'earshot.auth', key: envelope.companyId, envelope }]);
    await stack.settle();
    expect(await count()).toBe(1);

    const token = new URL(link!).searchParams.get('token')!;
    const accepted = await stack.app.inject({
      method: 'POST',
      url: '/api/auth/password/reset',
      payload: { token, password: 'ivy chose this one' },
    });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().user).toMatchObject({ email: 'ivy@acme.test' });
  });

  test('SMTP down: retried with back-off, then failed with the reason, nothing lost', async () => {
    const down = await createTestStack([authService, tenantService, messagingService], {
      SMTP_URL: 'smtp://mailer:s3cret@127.0.0.1:9',
      MAIL_WORKER: 'false',
    });
    try {
      const hostToken = await down.tokenFor('HOST_ADMIN', null);
      const company = await companyOf(down, hostToken, { name: 'Down', code: 'DOWN', domain: 'down' });
      await userOf(down, hostToken, 'bob@down.test', company, 'Bob');
      await forgot(down, 'bob@down.test');
      const state = async () =>
        (
          await down.database.query<{
            status: string;
            attempts: number;
            last_error: string | null;
            due: boolean;
            body: boolean;
          }>(
            'select status, attempts, last_error, next_attempt_at <= now() as due, body_sealed is not null as body from messaging.mail_messages',
          )
        )[0]!;

      expect(await sender(down).runOnce()).toBe(1);
      expect(await state()).toMatchObject({ status: 'queued', attempts: 1, due: false, body: true });
      expect((await state()).last_error).toMatch(/ECONNREFUSED|connect/i);
      // Not due yet: a round takes nothing.
      expect(await sender(down).runOnce()).toBe(0);
      for (let attempt = 2; attempt <= MAX_ATTEMPTS; attempt++) {
        await down.database.query(`update messaging.mail_messages set next_attempt_at = now() - interval '1 second'`);
        expect(await sender(down).runOnce()).toBe(1);
      }
      expect(await state()).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, body: true });
      const failed = await down.database.query<{ envelope: { data: { reason: string; attempts: number } } }>(
        `select envelope from messaging.outbox where envelope->>'type' = 'mail.failed'`,
      );
      expect(failed).toHaveLength(1);
      expect(failed[0]!.envelope.data.attempts).toBe(MAX_ATTEMPTS);
      // The failed message keeps its body: an administrator can still read (and follow) it.
      const [listed] = (await down.as(hostToken, { method: 'GET', url: '/api/email/outbox?status=failed' })).json<{
        items: OutgoingMailDto[];
      }>().items;
      expect(listed!.error).toMatch(/ECONNREFUSED|connect/i);
      expect(
        linkIn(
          (
            await down.as(hostToken, { method: 'GET', url: `/api/email/outbox/${listed!._id}` })
          ).json<OutgoingMailDetailDto>().text ?? '',
        ),
      ).toBeDefined();
    } finally {
      await down.close();
    }
  });
});

describe('mail without an SMTP server', () => {
  let stack: TestStack;
  let host: string;

  beforeAll(async () => {
    stack = await createTestStack([authService, tenantService, messagingService], { MAIL_WORKER: 'false' });
    host = await stack.tokenFor('HOST_ADMIN', null);
  });
  afterAll(() => stack?.close());

  test('each message becomes an .eml file under DATA_DIR/mail, listed on Outgoing mail with its link', async () => {
    const company = await companyOf(stack, host, { name: 'Files', code: 'FILES', domain: 'files' });
    await userOf(stack, host, 'eve@files.test', company, 'Eve');
    await forgot(stack, 'eve@files.test');
    expect(await sender(stack).runOnce()).toBe(1);

    const [listed] = (await stack.as(host, { method: 'GET', url: '/api/email/outbox' })).json<{
      items: OutgoingMailDto[];
    }>().items;
    expect(listed).toMatchObject({ status: 'sent', to: 'eve@files.test', subject: 'Reset your Files password' });
    const files = readdirSync(join(stack.dataDir, 'mail'));
    expect(files).toEqual([`${listed!._id}.eml`]);
    const mail = await simpleParser(readFileSync(join(stack.dataDir, 'mail', files[0]!)));
    expect(mail.subject).toBe('Reset your Files password');
    const link = linkIn(mail.text ?? '');
    // No PUBLIC_URL: links point at the company's own address on this machine, never at a request's Host.
    expect(link).toMatch(/^http:\/\/files\.localhost:\d+\/reset-password\?token=/);
    const detail = (
      await stack.as(host, { method: 'GET', url: `/api/email/outbox/${listed!._id}` })
    ).json<OutgoingMailDetailDto>();
    expect(linkIn(detail.text ?? '')).toBe(link);
  });
});

describe('templates', () => {
  let stack: TestStack;
  let host: string;
  const list = async (query = '') =>
    (await stack.as(host, { method: 'GET', url: `/api/email${query}` })).json<EmailTemplateDto[]>();

  beforeAll(async () => {
    stack = await createTestStack([authService, tenantService, messagingService], { MAIL_WORKER: 'false' });
    host = await stack.tokenFor('HOST_ADMIN', null);
  });
  afterAll(() => stack?.close());

  test('every type ships in en, fr, et and lv, each naming only its own variables', async () => {
    const platform = await list('?companyId=platform');
    expect(platform).toHaveLength(EMAIL_TEMPLATE_TYPES.length * 4);
    const subjects = new Map<string, Set<string>>();
    for (const template of platform) {
      expect(template).toMatchObject({ companyId: null, shipped: true });
      const used = [...`${template.subject}${template.html}${template.text}`.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)].map(
        (m) => m[1],
      );
      for (const name of used)
        expect([template.type, name, template.variables.includes(name!)]).toEqual([template.type, name, true]);
      subjects.set(template.type, (subjects.get(template.type) ?? new Set()).add(template.subject));
    }
    // Four languages, four different subjects per type.
    for (const [type, seen] of subjects) expect([type, seen.size]).toEqual([type, 4]);
  });

  test('an unknown variable or active content is refused at save, named; a valid edit is kept across restarts', async () => {
    const [reset] = await list('?type=password_reset&language=en&companyId=platform');
    const put = (body: Record<string, string>) =>
      stack.as(host, {
        method: 'PUT',
        url: `/api/email/${reset!._id}`,
        payload: { subject: reset!.subject, html: reset!.html, text: reset!.text, ...body },
      });

    const unknown = await put({ text: 'Hi {{user.frstName}}: {{link}}' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toMatch(/^Unknown variable \{\{user\.frstName\}\}/);
    expect(unknown.json().details).toEqual([expect.objectContaining({ field: 'body.text' })]);
    // A variable of another type is unknown here too.
    expect((await put({ subject: 'Your {{recording.name}}' })).json().details[0].field).toBe('body.subject');
    const script = await put({ html: '<p>Hi</p><script>alert(1)</script>' });
    expect([script.statusCode, script.json().details[0].field]).toEqual([400, 'body.html']);
    expect((await put({ html: '<a href="javascript:alert(1)">x</a>' })).statusCode).toBe(400);
    expect((await put({ html: '<img src="x" onerror="alert(1)">' })).statusCode).toBe(400);

    const saved = await put({ subject: 'New password for {{company.name}}' });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ subject: 'New password for {{company.name}}', shipped: false });
    await mailOf(stack.running.contexts.get('messaging') as never).seedShipped();
    const [after] = await list('?type=password_reset&language=en&companyId=platform');
    expect(after!.subject).toBe('New password for {{company.name}}');
    const [event] = await stack.database.query<{
      envelope: { data: { before: { subject: string }; after: { subject: string } } };
    }>(`select envelope from messaging.outbox where envelope->>'type' = 'email_template.updated'`);
    expect(event!.envelope.data.after.subject).toBe('New password for {{company.name}}');
  });

  test('resolution: company + language, then platform + language, then platform + English', async () => {
    const company = await companyOf(stack, host, { name: 'Lingo', code: 'LINGO', domain: 'lingo', language: 'et' });
    const mail = mailOf(stack.running.contexts.get('messaging') as never);
    const subjectFor = async (language: 'en' | 'fr' | 'et' | 'lv' | null) => {
      const row = await stack.running.contexts.get('messaging')!.transact((tx) =>
        mail.queue(tx, {
          companyId: company,
          type: 'transcript_ready',
          language,
          to: 'x@lingo.test',
          variables: { 'recording.name': 'call.wav' },
        }),
      );
      return row.subject;
    };
    expect(await subjectFor(null)).toBe('Salvestuse call.wav transkriptsioon on valmis'); // the company's language
    expect(await subjectFor('lv')).toBe('Ieraksta call.wav atšifrējums ir gatavs');

    const override = await stack.as(host, {
      method: 'POST',
      url: '/api/email',
      payload: {
        type: 'transcript_ready',
        language: 'lv',
        companyId: company,
        subject: 'Gatavs: {{recording.name}}',
        html: '<p>{{link}}</p>',
        text: '{{link}}',
      },
    });
    expect(override.statusCode).toBe(201);
    expect(await subjectFor('lv')).toBe('Gatavs: call.wav');
    expect(await subjectFor('fr')).toBe('La transcription de call.wav est prête');
    expect(
      (
        await stack.as(host, {
          method: 'POST',
          url: '/api/email',
          payload: {
            type: 'transcript_ready',
            language: 'lv',
            companyId: company,
            subject: 'Again',
            html: '<p>x</p>',
            text: 'x',
          },
        })
      ).statusCode,
    ).toBe(409);

    // Without a platform template in that language, English serves.
    await stack.database.query(
      `delete from messaging.email_templates where type = 'transcript_ready' and language = 'fr' and company_id is null`,
    );
    expect(await subjectFor('fr')).toBe('Your transcript of call.wav is ready');

    expect(
      (await stack.as(host, { method: 'DELETE', url: `/api/email/${override.json<EmailTemplateDto>()._id}` }))
        .statusCode,
    ).toBe(200);
    expect(await subjectFor('lv')).toBe('Ieraksta call.wav atšifrējums ir gatavs');
    const [platformDefault] = await list('?type=transcript_ready&language=en&companyId=platform');
    expect((await stack.as(host, { method: 'DELETE', url: `/api/email/${platformDefault!._id}` })).statusCode).toBe(
      409,
    );
  });

  test('preview renders a draft with sample values, escaped; test mail goes to the caller', async () => {
    const preview = await stack.as(host, {
      method: 'POST',
      url: '/api/email/preview',
      payload: {
        type: 'invitation',
        subject: 'Welcome {{user.firstName}}',
        html: '<p>Hi {{user.firstName}}, <a href="{{link}}" class="button">Go</a></p>',
        text: '{{link}}',
      },
    });
    expect(preview.statusCode).toBe(200);
    expect(preview.json().subject).toBe('Welcome Ada');
    expect(preview.json().html).toMatch(
      /<a href="http:\/\/localhost:\d+\/reset-password\?token=sample" class="button" style="display:inline-block;background:#465fff/,
    );

    const [template] = await list('?type=two_step_enabled&language=en&companyId=platform');
    const test = await stack.as(host, { method: 'POST', url: `/api/email/${template!._id}/test` });
    expect(test.statusCode).toBe(202);
    const detail = (
      await stack.as(host, { method: 'GET', url: `/api/email/outbox/${test.json()._id}` })
    ).json<OutgoingMailDetailDto>();
    expect(detail).toMatchObject({ status: 'queued', subject: 'Two-step sign-in is on', type: 'two_step_enabled' });
    expect(detail.to).toMatch(/@/);
  });
});

describe('notification mails', () => {
  let stack: TestStack;
  let host: string;
  let company: string;
  let userId: string;
  let token: string;
  const queued = async () =>
    await stack.database.query<{ type: string; to_address: string; subject: string }>(
      'select type, to_address, subject from messaging.mail_messages order by created_at, id',
    );
  /** Another service's fact, the way it arrives on the bus. */
  const publish = async (topic: string, event: NewEvent) => {
    await stack.bus.publish([{ topic, key: company, envelope: buildEnvelope(event) }]);
    await stack.settle();
  };
  const fileId = () => crypto.randomUUID();
  const uploaded = (id: string) =>
    publish('earshot.file', {
      type: 'file.uploaded',
      companyId: company,
      actor: SYSTEM_ACTOR,
      data: {
        id,
        storageKey: `k/${id}`,
        originalName: `${id.slice(0, 4)}.wav`,
        mimeType: 'audio/wav',
        size: 10,
        clientId: null,
        uploadedBy: userId,
      },
    });
  const completed = (id: string) =>
    publish('earshot.transcription', {
      type: 'transcript.completed',
      companyId: company,
      actor: SYSTEM_ACTOR,
      data: {
        id: crypto.randomUUID(),
        fileId: id,
        engine: 'pocketsphinx',
        duration: 3,
        speakers: 1,
        words: 4,
        fileName: 'x.wav',
        parts: 0,
      },
    });
  const failed = (id: string) =>
    publish('earshot.transcription', {
      type: 'transcript.status_changed',
      companyId: company,
      actor: SYSTEM_ACTOR,
      data: { fileId: id, status: 'failed', reason: 'The recording has no audio stream' },
    });

  beforeAll(async () => {
    stack = await createTestStack([authService, tenantService, messagingService], {
      MAIL_WORKER: 'false',
      PUBLIC_URL: 'https://console.notify.test',
    });
    host = await stack.tokenFor('HOST_ADMIN', null);
    company = await companyOf(stack, host, { name: 'Notify', code: 'NOTIFY', domain: 'notify' });
    userId = await userOf(stack, host, 'nia@notify.test', company, 'Nia');
    token = await stack.tokenFor('USER', company, userId);
  });
  afterAll(() => stack?.close());

  test('two-step sign-in turned on or off is always mailed to the person', async () => {
    await publish('earshot.auth', {
      type: 'user.two_step_changed',
      companyId: company,
      actor: SYSTEM_ACTOR,
      data: { id: userId, enabled: true },
    });
    await publish('earshot.auth', {
      type: 'user.two_step_changed',
      companyId: company,
      actor: SYSTEM_ACTOR,
      data: { id: userId, enabled: false },
    });
    expect((await queued()).slice(-2)).toEqual([
      { type: 'two_step_enabled', to_address: 'nia@notify.test', subject: 'Two-step sign-in is on' },
      { type: 'two_step_disabled', to_address: 'nia@notify.test', subject: 'Two-step sign-in is off' },
    ]);
  });

  test('transcript ready and failed go to the uploader only when they turned them on', async () => {
    const preferences = (payload?: object) =>
      stack.as(
        token,
        payload
          ? { method: 'PUT', url: '/api/email/preferences', payload }
          : { method: 'GET', url: '/api/email/preferences' },
      );
    expect((await preferences()).json()).toEqual({ transcriptReady: false, transcriptionFailed: false });
    const before = (await queued()).length;
    const quiet = fileId();
    await uploaded(quiet);
    await completed(quiet);
    await failed(quiet);
    expect(await queued()).toHaveLength(before);

    expect((await preferences({ transcriptReady: true })).json()).toEqual({
      transcriptReady: true,
      transcriptionFailed: false,
    });
    expect((await preferences({})).statusCode).toBe(400);
    const ready = fileId();
    await uploaded(ready);
    await completed(ready);
    await failed(ready);
    const [mail] = (await queued()).slice(before);
    expect(mail).toEqual({
      type: 'transcript_ready',
      to_address: 'nia@notify.test',
      subject: `Your transcript of ${ready.slice(0, 4)}.wav is ready`,
    });
    expect(await queued()).toHaveLength(before + 1);

    await preferences({ transcriptionFailed: true });
    const broken = fileId();
    await uploaded(broken);
    await failed(broken);
    const [failure] = (await queued()).slice(before + 1);
    expect(failure).toMatchObject({
      type: 'transcription_failed',
      subject: `The transcription of ${broken.slice(0, 4)}.wav failed`,
    });
    const [message] = (await stack.as(host, { method: 'GET', url: '/api/email/outbox?status=queued' })).json<{
      items: OutgoingMailDto[];
    }>().items;
    const detail = (
      await stack.as(host, { method: 'GET', url: `/api/email/outbox/${message!._id}` })
    ).json<OutgoingMailDetailDto>();
    expect(detail.text).toContain('The recording has no audio stream');
    expect(detail.text).toContain(`https://console.notify.test/transcripts/${broken}`);
  });
});
