import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
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

/** SMTP as the URL says: smtps:// is TLS from the start, smtp:// upgrades with STARTTLS when offered. */
export function smtpTransport(url: string): MailTransport {
  const transporter: Transporter = nodemailer.createTransport(url);
  return {
    kind: 'smtp',
    async send(mail) {
      await transporter.sendMail(message(mail));
      return { transport: 'smtp', fileName: null };
    },
    close: () => transporter.close(),
  };
}

/** The embedded default: each message becomes DATA_DIR/mail/<id>.eml, written whole or not at all. */
export function fileTransport(directory: string): MailTransport {
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'file',
    async send(mail) {
      const info = await transporter.sendMail(message(mail));
      await mkdir(directory, { recursive: true });
      const fileName = `${mail.id}.eml`;
      const partial = join(directory, `.${fileName}.partial`);
      await writeFile(partial, info.message as Buffer, { mode: 0o600 });
      await rename(partial, join(directory, fileName));
      return { transport: 'file', fileName };
    },
    close: () => transporter.close(),
  };
}
