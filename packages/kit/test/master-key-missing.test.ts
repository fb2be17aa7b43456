import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import {
  buildServer,
  COMPANY_AUDIO_KEY_PATH,
  KeyUnavailableError,
  MasterKeyMissingError,
  MasterKeys,
  remoteCompanyKeys,
} from '../src';

// Encryption at rest on a server without a master key is the operator's to fix: whichever write
// meets it, the caller is told 503 and what to set, in one place (the kit's error handler).

test('a write that needs the missing master key answers 503 naming ENCRYPTION_MASTER_KEY; another key failure stays a 500', async () => {
  const app = buildServer({ logLevel: 'silent', name: 'master-key-test' });
  app.post('/api/seal', async () => new MasterKeys(null).wrap(randomUUID(), Buffer.alloc(32)));
  app.get('/api/destroyed', async () => {
    throw new KeyUnavailableError('The data key of company x is gone: the object cannot be decrypted');
  });
  const missing = await app.inject({ method: 'POST', url: '/api/seal' });
  expect(missing.statusCode).toBe(503);
  expect(missing.json()).toEqual({
    message: expect.stringContaining('ENCRYPTION_MASTER_KEY'),
    code: 'ENCRYPTION_KEY_MISSING',
  });
  // A destroyed key or a wrong master key is no configuration gap: its reason stays in the log.
  const destroyed = await app.inject({ method: 'GET', url: '/api/destroyed' });
  expect(destroyed.statusCode).toBe(500);
  expect(destroyed.json().code).toBe('INTERNAL');
  await app.close();
});

test('the remote audio keys of a file service without a master key say so, naming ENCRYPTION_MASTER_KEY', async () => {
  const token = 'master-key-test-token-master-key-test-token';
  const fileService = Fastify();
  fileService.get(COMPANY_AUDIO_KEY_PATH, async () => ({ encrypt: true, wrappedKey: null, destroyed: false }));
  const url = await fileService.listen({ host: '127.0.0.1', port: 0 });
  try {
    const keys = remoteCompanyKeys(url, token, new MasterKeys(Buffer.alloc(32, 7)));
    const failure = keys.dataKey(randomUUID());
    await expect(failure).rejects.toThrow(MasterKeyMissingError);
    await expect(failure).rejects.toThrow(/file service .*ENCRYPTION_MASTER_KEY/);
  } finally {
    await fileService.close();
  }
});
