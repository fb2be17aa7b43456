// Jest runs native ESM (node --experimental-vm-modules) because several dependencies (PGlite, jose)
// are ESM-only; swc strips the TypeScript without type-checking (tsc does that in `npm run lint`).
const swc = ['@swc/jest', {
  jsc: { target: 'es2022', parser: { syntax: 'typescript', tsx: true }, transform: { react: { runtime: 'automatic' } } },
  module: { type: 'es6' },
}];

const base = {
  extensionsToTreatAsEsm: ['.ts', '.tsx'],
  transform: { '^.+\\.tsx?$': swc },
  testPathIgnorePatterns: ['/node_modules/'],
  moduleNameMapper: {
    '^cookie$': '<rootDir>/scripts/jest/cookie-shim.cjs',
    '^content-disposition$': '<rootDir>/scripts/jest/content-disposition-shim.cjs',
  },
};

const serverTests = ['<rootDir>/{packages,services,gateway,deploy,scripts}/**/*.test.ts'];

const projects = [
  // Server suites on embedded PostgreSQL (PGlite): always.
  {
    ...base,
    displayName: 'pglite',
    testEnvironment: 'node',
    testMatch: serverTests,
    // *.postgres.test.ts need server-wide objects (roles) that only a PostgreSQL server has.
    testPathIgnorePatterns: [...base.testPathIgnorePatterns, '\\.postgres\\.test\\.ts$'],
    setupFiles: ['<rootDir>/packages/kit/src/testing/use-pglite.ts'],
  },
  // Web unit tests (components, hooks, pure logic) in jsdom.
  {
    ...base,
    displayName: 'web',
    testEnvironment: 'jsdom',
    testMatch: ['<rootDir>/web/src/**/*.test.{ts,tsx}'],
    setupFilesAfterEnv: ['<rootDir>/web/jest.setup.ts'],
    moduleNameMapper: { ...base.moduleNameMapper, '\\.(css|svg|png)$': '<rootDir>/web/test/file-stub.cjs' },
  },
  // End-to-end: the real all-in-one server driven by Debian's Chromium.
  {
    ...base,
    displayName: 'browser',
    testEnvironment: 'node',
    testMatch: ['<rootDir>/web/e2e/**/*.e2e.test.ts'],
  },
];

if (process.env.DATABASE_URL) {
  // The same server suites again on the real PostgreSQL server (a throwaway database per file).
  projects.push({
    ...base,
    displayName: 'postgres',
    testEnvironment: 'node',
    testMatch: serverTests,
    setupFiles: ['<rootDir>/packages/kit/src/testing/use-postgres.ts'],
  });
}

// Embedded PostgreSQL takes seconds to start on a busy 2-core machine: a limit, not an assertion.
export default { projects, testTimeout: 60_000, reporters: ['default', '<rootDir>/scripts/summary-reporter.cjs'] };
