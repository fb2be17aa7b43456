import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  randomBytes,
  type JsonWebKey,
  type KeyObject,
} from 'node:crypto';
import { calculateJwkThumbprint, type JWK } from 'jose';
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

/** The key that signs access tokens now, and every public key verifiers should still accept. */
export interface SigningKeys {
  current: { kid: string; privateKey: KeyObject };
  publicJwks: JWK[];
}

interface StoredKey {
  kid: string;
  privateJwk: JsonWebKey;
  /** When a newer key took over; the public half is published until its last token expired. */
  retiredAt: string | null;
}

const SIGNING_KEYS_FILE = 'signing-keys.json';

/** Reads an Ed25519 private key given as PKCS#8 PEM or as a JWK (JSON); throws a readable error. */
export function parseSigningKey(text: string): KeyObject {
  let key: KeyObject;
  try {
    key = text.trim().startsWith('{')
      ? createPrivateKey({ key: JSON.parse(text) as JsonWebKey, format: 'jwk' })
      : createPrivateKey(text.replace(/\\n/g, '\n'));
  } catch {
    throw new Error('must be an Ed25519 private key as PKCS#8 PEM or JWK');
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`must be an Ed25519 key (got ${key.asymmetricKeyType})`);
  return key;
}

/** Public keys given as a JWKS ({"keys": [...]}) or a JSON array of JWKs. */
export function parsePublicKeys(text: string): JWK[] {
  const parsed = JSON.parse(text) as unknown;
  const keys = Array.isArray(parsed) ? parsed : (parsed as { keys?: unknown }).keys;
  if (!Array.isArray(keys)) throw new Error('must be a JWKS ({"keys": [...]}) or a JSON array of public JWKs');
  return keys.map((k) => {
    const { kty, crv, x, kid } = k as JWK;
    if (kty !== 'OKP' || crv !== 'Ed25519' || typeof x !== 'string')
      throw new Error('every key must be an Ed25519 public JWK');
    return { kty, crv, x, kid, alg: 'EdDSA', use: 'sig' };
  });
}

async function publicJwkOf(privateKey: KeyObject, kid?: string): Promise<JWK> {
  const { kty, crv, x } = createPublicKey(privateKey).export({ format: 'jwk' }) as JWK;
  const jwk: JWK = { kty, crv, x };
  return { ...jwk, kid: kid ?? (await calculateJwkThumbprint(jwk)), alg: 'EdDSA', use: 'sig' };
}

async function newStoredKey(): Promise<StoredKey> {
  const { privateKey } = generateKeyPairSync('ed25519');
  const { kid } = await publicJwkOf(privateKey);
  return { kid: kid!, privateJwk: privateKey.export({ format: 'jwk' }), retiredAt: null };
}

function readStoredKeys(file: string): StoredKey[] {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { keys: StoredKey[] }).keys : [];
}

function writeStoredKeys(dataDir: string, keys: StoredKey[]) {
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(join(dataDir, SIGNING_KEYS_FILE), JSON.stringify({ keys }), { mode: 0o600 });
}

/**
 * The access-token keys. Distributed mode passes AUTH_SIGNING_KEY (and, while rotating,
 * AUTH_PREVIOUS_PUBLIC_KEYS); all-in-one generates a key pair once into DATA_DIR. Retired keys
 * stay published for one token lifetime after their retirement, then are dropped.
 */
export async function resolveSigningKeys(
  dataDir: string,
  ttlSeconds: number,
  given: { AUTH_SIGNING_KEY?: string; AUTH_PREVIOUS_PUBLIC_KEYS?: string } = {},
): Promise<SigningKeys> {
  if (given.AUTH_SIGNING_KEY) {
    const privateKey = parseSigningKey(given.AUTH_SIGNING_KEY);
    const current = await publicJwkOf(privateKey);
    const previous = given.AUTH_PREVIOUS_PUBLIC_KEYS ? parsePublicKeys(given.AUTH_PREVIOUS_PUBLIC_KEYS) : [];
    const withKids = await Promise.all(
      previous.map(async (k) => ({ ...k, kid: k.kid ?? (await calculateJwkThumbprint(k)) })),
    );
    return {
      current: { kid: current.kid!, privateKey },
      publicJwks: [current, ...withKids.filter((k) => k.kid !== current.kid)],
    };
  }
  const file = join(dataDir, SIGNING_KEYS_FILE);
  const stored = readStoredKeys(file);
  const cutoff = Date.now() - ttlSeconds * 1000;
  const kept = stored.filter((k) => k.retiredAt === null || new Date(k.retiredAt).getTime() > cutoff);
  if (!kept.some((k) => k.retiredAt === null)) kept.push(await newStoredKey());
  if (kept.length !== stored.length) writeStoredKeys(dataDir, kept);
  const active = kept.find((k) => k.retiredAt === null)!;
  const privateKey = createPrivateKey({ key: active.privateJwk, format: 'jwk' });
  const publicJwks = await Promise.all(
    kept.map((k) => publicJwkOf(createPrivateKey({ key: k.privateJwk, format: 'jwk' }), k.kid)),
  );
  return { current: { kid: active.kid, privateKey }, publicJwks };
}

/**
 * All-in-one key rotation: a new key signs from the next start; the old one is retired but stays
 * published, so tokens it signed keep working until they expire. Returns the new key's kid.
 */
export async function rotateSigningKey(dataDir: string): Promise<string> {
  const now = new Date().toISOString();
  const keys = readStoredKeys(join(dataDir, SIGNING_KEYS_FILE)).map((k) =>
    k.retiredAt === null ? { ...k, retiredAt: now } : k,
  );
  const fresh = await newStoredKey();
  writeStoredKeys(dataDir, [...keys, fresh]);
  return fresh.kid;
}
