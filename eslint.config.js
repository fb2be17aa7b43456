import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import checkFile from 'eslint-plugin-check-file';

const root = import.meta.dirname;
const webSrc = './web/src';
const folders = (parent) =>
  readdirSync(join(import.meta.dirname, webSrc, parent), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
const features = folders('features');
const entities = folders('entities');
const shared = [`${webSrc}/lib`, `${webSrc}/components`, `${webSrc}/i18n`];

/**
 * The web console's import boundaries (bulletproof-react's zones), one direction only:
 * app → features → entities → shared (lib/, components/, i18n/). `app/` composes features; a
 * feature uses entities and shared code, never another feature or `app/`; an entity uses shared
 * code and other entities through their `index.ts` only, never a feature or `app/`; shared code
 * uses none of them. Exported for web/src/lint-boundaries.test.ts.
 */
export const webZones = [
  ...features.map((name) => ({
    target: `${webSrc}/features/${name}`,
    from: `${webSrc}/features`,
    except: [`./${name}`],
    message:
      'A feature never imports another feature: move what both need to an entity (entities/) or to lib/ or components/.',
  })),
  {
    target: `${webSrc}/features`,
    from: `${webSrc}/app`,
    message: 'Features never import the composition root (app/): the API, store and brand live in lib/.',
  },
  {
    target: `${webSrc}/entities`,
    from: [`${webSrc}/features`, `${webSrc}/app`],
    message: 'Entities never import features or app/: what a feature needs from another goes down into entities/.',
  },
  // Another entity's files are private: only its index.ts (its public surface) may be imported.
  ...entities.map((name) => ({
    target: `${webSrc}/entities/${name}`,
    from: `${webSrc}/entities`,
    except: [`./${name}`, ...entities.filter((other) => other !== name).map((other) => `./${other}/index.ts`)],
    message: 'An entity imports another entity only through its index.ts.',
  })),
  {
    target: shared,
    from: [`${webSrc}/entities`, `${webSrc}/features`, `${webSrc}/app`],
    message: 'Shared code (lib/, components/, i18n/) never imports entities, features or app/.',
  },
];

/**
 * Every npm workspace, judged by its own package.json: a service that imports another service's
 * package (or any library) it does not declare works only by npm's hoisting and breaks when deployed
 * alone.
 */
const workspaces = [
  ...['packages', 'services'].flatMap((parent) =>
    readdirSync(join(root, parent), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `${parent}/${entry.name}`),
  ),
  'gateway',
  'web',
  'tests/system',
];

/** A workspace's files that only tests, tooling or builds run: its devDependencies are fine there. */
const devOnlyIn = (workspace) =>
  (workspace === 'tests/system'
    ? ['**']
    : [
        '**/test/**',
        '**/e2e/**',
        '**/*.test.{ts,tsx}',
        '**/src/testing/**',
        'scripts/**',
        'jest.setup.ts',
        '**/*.config.{js,mjs,cjs,ts}',
        '**/*.cjs',
        // A worker thread's loader for runs from sources (tests, development): it loads the thread's
        // TypeScript through tsx; `npm run build` puts the compiled thread in its place.
        '**/*-thread.mjs',
      ]
  ).map((glob) => `${workspace}/${glob}`);

/**
 * The root's devDependencies are the repository's tools (jest, tsx, the fixtures' mail and S3
 * servers): any workspace's tests may use them. Not the workspaces the root's scripts import: a
 * service's tests that start another service belong in tests/system, which declares it.
 */
const rootPackage = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const rootTools = Object.keys(rootPackage.devDependencies).filter((name) => !name.startsWith('@earshot/'));

const extraneous = (options) => ({
  'import-x/no-extraneous-dependencies': ['error', { includeInternal: true, includeTypes: true, ...options }],
});

/** Server TypeScript, where import cycles are refused (half-initialised modules at start-up). */
const serverTs = [
  'packages/**/*.ts',
  'services/**/*.ts',
  'gateway/**/*.ts',
  'tests/**/*.ts',
  'scripts/**/*.ts',
  'deploy/**/*.ts',
];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'coverage/**', 'web/public/sw.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      // Un-awaited promises lose errors and ordering: always an error here.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  { files: ['**/*.{js,mjs,cjs}'], languageOptions: { globals: { ...globals.node } } },
  // CommonJS files (jest shims and reporters) load their dependencies with require().
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  { files: ['web/**/*.{ts,tsx}'], languageOptions: { globals: { ...globals.browser } } },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX, 'react-hooks': reactHooks, 'check-file': checkFile },
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })] },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: webZones }],
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      // `word-edit.test.tsx`: the name before the first dot is kebab-case.
      'check-file/filename-naming-convention': [
        'error',
        { 'web/src/**/*.{ts,tsx}': 'KEBAB_CASE' },
        { ignoreMiddleExtensions: true },
      ],
      'check-file/folder-naming-convention': ['error', { 'web/src/**/': 'KEBAB_CASE' }],
    },
  },
  {
    files: ['**/*.{ts,tsx,js,mjs,cjs}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
      // no-cycle follows imports only into files it may parse: TypeScript through typescript-eslint.
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs', '.cjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    // The root's own files (scripts, deploy checks, configs) are all tooling.
    rules: extraneous({ packageDir: root, devDependencies: true }),
  },
  ...workspaces.flatMap((workspace) => [
    {
      files: [`${workspace}/**/*.{ts,tsx,js,mjs,cjs}`],
      rules: extraneous({
        packageDir: join(root, workspace),
        devDependencies: devOnlyIn(workspace).map((glob) => join(root, glob)),
      }),
    },
    {
      files: devOnlyIn(workspace),
      rules: extraneous({ packageDir: join(root, workspace), devDependencies: true, whitelist: rootTools }),
    },
  ]),
  {
    files: [...serverTs, 'web/src/**/*.{ts,tsx}'],
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
);
