import { generateKeyPairSync, randomUUID } from 'node:crypto';
import type { JWK } from 'jose';
import type { SigningKeys } from '../secrets';

/** A fresh Ed25519 key pair for a test signer (never written anywhere). */
export function testSigningKeys(): SigningKeys {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const { kty, crv, x } = publicKey.export({ format: 'jwk' }) as JWK;
  const kid = `test-${randomUUID()}`;
  return { current: { kid, privateKey }, publicJwks: [{ kty, crv, x, kid, alg: 'EdDSA', use: 'sig' }] };
}

/** An Ed25519 private key as PKCS#8 PEM, the form AUTH_SIGNING_KEY takes. */
export function testSigningKeyPem(): string {
  return generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}
