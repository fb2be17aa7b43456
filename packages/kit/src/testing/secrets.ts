// A module of their own, not index.ts: the stack and the service processes use them, and index.ts
// re-exports those two, so defining the secrets in index.ts made an import cycle.

/** Known secrets for tests: never used outside them. */
export const TEST_JWT_SECRET = 'test-secret-test-secret-test-secret-0123456789';
export const TEST_SECRETS_KEY = '0'.repeat(64);
