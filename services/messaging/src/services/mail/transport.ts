import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Transporter } from 'nodemailer';
import type { RenderedMail } from './render';

export interface OutgoingMail extends RenderedMail {
  id: string;
  from: string;
  to: string;
}

export interface Delivery {
  transport: 'smtp' | 'file';
  /** The .eml file's name under DATA_DIR/mail (file transport only). */
  fileName: string | null;
}

/** Where mail goes: an SMTP server, or .eml files when none is configured. */
export interface MailTransport {
  readonly kind: 'smtp' | 'file';
  send(mail: OutgoingMail): Promise<Delivery>;
  close(): void;
}

const message = (mail: OutgoingMail) => ({
  from: mail.from,
  to: mail.to,
  subject: mail.subject,
  html: mail.html,
  text: mail.text,
  // The queue's id, so a message retried after a lost reply can be recognised by the receiver.
  messageId: `<${mail.id}@earshot>`,
});

/**
 * A nodemailer transporter made at the first message, not when the service starts: nodemailer is a
 * tenth of a second of CPU to load, which a process (or a test file) that sends nothing never pays.
 */
function lazyTransporter(make: (mailer: typeof import('nodemailer')) => Transporter) {
  let transporter: Promise<Transporter> | undefined;
  return {
    get: () => (transporter ??= import('nodemailer').then(make)),
    close: () =>
      void transporter?.then(
        (made) => made.close(),
        () => undefined,
      ),
  };
}

/** SMTP as the URL says: smtps:// is TLS from the start, smtp:// upgrades with STARTTLS when offered. */
export function smtpTransport(url: string): MailTransport {
  const transporter = lazyTransporter((mailer) => mailer.createTransport(url));
  return {
    kind: 'smtp',
    async send(mail) {
      await (await transporter.get()).sendMail(message(mail));
      return { transport: 'smtp', fileName: null };
    },
    close: transporter.close,
  };
}

/** The embedded default: each message becomes DATA_DIR/mail/<id>.eml, written whole or not at all. */
export function fileTransport(directory: string): MailTransport {
  const transporter = lazyTransporter((mailer) =>
    mailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }),
  );
  return {
    kind: 'file',
    async send(mail) {
      const info = await (await transporter.get()).sendMail(message(mail));
      await mkdir(directory, { recursive: true });
      const fileName = `${mail.id}.eml`;
      const partial = join(directory, `.${fileName}.partial`);
      await writeFile(partial, info.message as Buffer, { mode: 0o600 });
      await rename(partial, join(directory, fileName));
      return { transport: 'file', fileName };
    },
    close: transporter.close,
  };
}
