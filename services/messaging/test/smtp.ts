import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface Received {
  user: string;
  secure: boolean;
  mail: ParsedMail;
}

/** A real SMTP server that requires AUTH over TLS (it refuses AUTH before STARTTLS). */
export async function startSmtp(received: Received[]): Promise<{ server: SMTPServer; port: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'earshot-smtp-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
    ],
    { stdio: 'ignore' },
  );
  const server = new SMTPServer({
    key: readFileSync(join(dir, 'key.pem')),
    cert: readFileSync(join(dir, 'cert.pem')),
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    onAuth(auth, session, callback) {
      if (auth.username === 'mailer' && auth.password === 's3cret') callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      simpleParser(stream).then((mail) => {
        received.push({ user: String(session.user), secure: session.secure, mail });
        callback();
      }, callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.server.address() as AddressInfo).port };
}

/** The address of a server from startSmtp: STARTTLS insisted on (its certificate is self-signed), with its account. */
export const smtpUrl = (port: number) =>
  `smtp://mailer:s3cret@127.0.0.1:${port}?tls.rejectUnauthorized=false&requireTLS=true`;
