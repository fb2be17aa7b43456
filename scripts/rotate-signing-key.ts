// `npm run rotate-signing-key`: all-in-one key rotation. A new Ed25519 key signs access tokens from
// the next start; the old one stays published in the JWKS until the tokens it signed have expired,
// so nobody is signed out. Distributed mode rotates AUTH_SIGNING_KEY instead (services/auth/README.md).
import { rotateSigningKey } from '@earshot/kit';

const dataDir = process.env.DATA_DIR || './data';
const kid = await rotateSigningKey(dataDir);
console.log(`New signing key ${kid} in ${dataDir}: restart Earshot to sign with it.`);
