// Jest runs native ESM (node --experimental-vm-modules) because several dependencies (PGlite, jose)
// are ESM-only; swc strips the TypeScript without type-checking (tsc does that in `npm run lint`).
const swc = [
  '@swc/jest',
  {
    jsc: {
      target: 'es2022',
      parser: { syntax: 'typescript', tsx: true },
      transform: { react: { runtime: 'automatic' } },
    },
    module: { type: 'es6' },
  },
];

const base = {
  extensionsToTreatAsEsm: ['.ts', '.tsx'],
  transform: { '^.+\\.tsx?$': swc },
  testPathIgnorePatterns: ['/node_modules/'],
};

const serverTests = ['<rootDir>/{packages,services,gateway,deploy,scripts,tests}/**/*.test.ts'];

// With a real PostgreSQL server (DATABASE_URL, as in CI) the server suites run on it, and on
// PGlite only the suites about the embedded database itself: PGlite is the same PostgreSQL engine,
// so a second full pass doubled CI's time without finding anything; the browser suites run the
// console on a database of their own on that server too (web/e2e/global-setup.ts). Without
// DATABASE_URL (a fresh machine) every suite runs on PGlite.
const embeddedSuites = [
  '<rootDir>/packages/kit/test/migrate.test.ts',
  '<rootDir>/packages/kit/test/outbox.test.ts',
  '<rootDir>/packages/kit/test/pglite-template.test.ts',
  '<rootDir>/deploy/db-schema.test.ts',
];

const projects = [
  {
    ...base,
    displayName: 'pglite',
    testEnvironment: 'node',
    testMatch: process.env.DATABASE_URL ? embeddedSuites : serverTests,
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
    moduleNameMapper: { '\\.(css|svg|png)$': '<rootDir>/web/test/file-stub.cjs' },
  },
  // End-to-end: the real all-in-one server driven by Debian's Chromium.
  {
    ...base,
    displayName: 'browser',
    testEnvironment: 'node',
    testMatch: ['<rootDir>/web/e2e/**/*.e2e.test.ts'],
    // With DATABASE_URL: a migrated, seeded template database each suite's server starts on a copy of.
    globalSetup: '<rootDir>/web/e2e/global-setup.ts',
    globalTeardown: '<rootDir>/web/e2e/global-teardown.ts',
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
// Two workers: the suites mostly wait on PostgreSQL, child processes and Chromium rather than
// compute, so two files side by side halve the run (see the timing report and docs/development.md).
// Suites must therefore wait on conditions, never on how long something takes. A worker is replaced
// once it holds more than 1.5 GB between files (PGlite's WebAssembly memory, kept by suites that
// leak), which keeps the run's memory bounded at two such heaps. A test's time limit is a limit that
// stops a hung test, not a speed check: with two files sharing the cores a test takes up to twice as
// long as it did alone, so the limit is twice the one-worker 60 s.
export default {
  projects,
  // One mock Kafka cluster for the run (KAFKA_BROKERS for the Kafka suites; EXPECT_KAFKA=true makes it required).
  globalSetup: '<rootDir>/scripts/jest/kafka-setup.ts',
  globalTeardown: '<rootDir>/scripts/jest/kafka-teardown.ts',
  maxWorkers: 2,
  // The longest files first (scripts/jest/sequencer.cjs): a run must not end on one long file.
  testSequencer: '<rootDir>/scripts/jest/sequencer.cjs',
  workerIdleMemoryLimit: '1.5GB',
  testTimeout: 120_000,
  reporters: ['default', '<rootDir>/scripts/summary-reporter.cjs', '<rootDir>/scripts/jest/timing-reporter.cjs'],
};
