import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveSecrets } from '../src';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'earshot-secrets-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const ENV_JWT = 'env-jwt-secret-env-jwt-secret-env-jwt-secret';
const ENV_KEY = 'ab'.repeat(32);

test('generates secrets once, keeps them in DATA_DIR readable by the owner only, and reuses them', () => {
  const dir = join(tempDir(), 'nested', 'data');
  const first = resolveSecrets(dir, {});
  expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
  expect(first.secretsKey).toMatch(/^[0-9a-f]{64}$/);
  const file = join(dir, 'secrets.json');
  expect(statSync(file).mode & 0o777).toBe(0o600);
  expect(resolveSecrets(dir, {})).toEqual(first);
  expect(resolveSecrets(tempDir(), {}).jwtSecret).not.toBe(first.jwtSecret);
});

test('secrets from the environment win and are never written to disk', () => {
  const dir = tempDir();
  expect(resolveSecrets(dir, { JWT_SECRET: ENV_JWT, SECRETS_KEY: ENV_KEY })).toEqual({
    jwtSecret: ENV_JWT,
    secretsKey: ENV_KEY,
  });
  expect(existsSync(join(dir, 'secrets.json'))).toBe(false);

  // Only the missing one is generated and stored.
  const partial = resolveSecrets(dir, { JWT_SECRET: ENV_JWT });
  expect(partial.jwtSecret).toBe(ENV_JWT);
  const stored = readFileSync(join(dir, 'secrets.json'), 'utf8');
  expect(stored).not.toContain(ENV_JWT);
  expect(JSON.parse(stored)).toEqual({ secretsKey: partial.secretsKey });
});

test('the environment overrides a secret already stored, without rewriting the file', () => {
  const dir = tempDir();
  const generated = resolveSecrets(dir, {});
  const before = readFileSync(join(dir, 'secrets.json'), 'utf8');
  const resolved = resolveSecrets(dir, { JWT_SECRET: ENV_JWT });
  expect(resolved).toEqual({ jwtSecret: ENV_JWT, secretsKey: generated.secretsKey });
  expect(readFileSync(join(dir, 'secrets.json'), 'utf8')).toBe(before);
});
