import { runStandalone } from '@earshot/kit';
import { authService } from './index';

// On its own the service cannot generate a key each replica would agree on: it must be given one.
if (!process.env.AUTH_SIGNING_KEY) {
  console.error(
    [
      'auth service cannot start. Invalid configuration:',
      '  - AUTH_SIGNING_KEY: required when the auth service runs on its own (an Ed25519 private key, PKCS#8 PEM or JWK;',
      '    e.g. openssl genpkey -algorithm ed25519)',
    ].join('\n'),
  );
  process.exit(1);
}
await runStandalone(authService);
