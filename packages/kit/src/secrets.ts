import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Secrets {
  jwtSecret: string;
  secretsKey: string;
}

/**
 * All-in-one mode needs no configuration: secrets the environment does not give are generated once
 * and kept in DATA_DIR (mode 0600), so sessions and encrypted settings survive a restart. Secrets
 * that come from the environment are never written to disk.
 */
export function resolveSecrets(dataDir: string, given: { JWT_SECRET?: string; SECRETS_KEY?: string }): Secrets {
  const file = join(dataDir, 'secrets.json');
  const stored: Partial<Secrets> = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Partial<Secrets>) : {};
  const toStore = { ...stored };
  if (!given.JWT_SECRET && !stored.jwtSecret) toStore.jwtSecret = randomBytes(48).toString('base64url');
  if (!given.SECRETS_KEY && !stored.secretsKey) toStore.secretsKey = randomBytes(32).toString('hex');
  if (toStore.jwtSecret !== stored.jwtSecret || toStore.secretsKey !== stored.secretsKey) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, JSON.stringify(toStore), { mode: 0o600 });
  }
  return { jwtSecret: given.JWT_SECRET ?? toStore.jwtSecret!, secretsKey: given.SECRETS_KEY ?? toStore.secretsKey! };
}
