/** @jest-environment node */
// The import boundaries of web/src are enforced by the project's own ESLint configuration: this
// reads the rule from eslint.config.js (as it applies to each file) and runs it on imports in
// every direction: app → features → entities → shared (lib/, components/, i18n/) passes, every
// import back up or sideways fails. Removing or loosening the rule there fails these tests.
import { describe, expect, it } from '@jest/globals';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { importX } from 'eslint-plugin-import-x';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const RULE = 'import-x/no-restricted-paths';

/** The boundary rule and resolver settings exactly as eslint.config.js gives them for `file`. */
async function projectRule(file: string): Promise<Pick<Linter.Config, 'rules' | 'settings'>> {
  const config = (await new ESLint({ cwd: root }).calculateConfigForFile(join(root, file))) as Linter.Config;
  return { rules: { [RULE]: config.rules?.[RULE] ?? 'off' }, settings: config.settings ?? {} };
}

/** Lints `code` as if it were the file at `file`, with only the project's boundary rule. */
async function boundaryErrors(file: string, code: string): Promise<string[]> {
  const { rules, settings } = await projectRule(file);
  const eslint = new ESLint({
    cwd: root,
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ['**/*.{ts,tsx}'],
        languageOptions: { parser: tseslint.parser },
        plugins: { 'import-x': importX },
        settings,
        rules,
      },
    ],
  });
  const [result] = await eslint.lintText(code, { filePath: join(root, file) });
  return (result?.messages ?? []).map((message) => `${message.ruleId}: ${message.message}`);
}

const PREFIX = /^import-x\/no-restricted-paths: Unexpected path .* imported in restricted zone\. /;

/** An import that must fail lint: `from` imports `spec`, and the rule says `message`. */
const forbidden: Array<[direction: string, from: string, spec: string, message: RegExp]> = [
  [
    'a feature importing another feature',
    'features/chat',
    '../library/tag-editor',
    /A feature never imports another feature/,
  ],
  ['a feature importing app/', 'features/chat', '../../app/router', /Features never import the composition root/],
  [
    'an entity importing a feature',
    'entities/tasks',
    '../../features/chat/chat-api',
    /Entities never import features or app/,
  ],
  ['an entity importing app/', 'entities/tasks', '../../app/router', /Entities never import features or app/],
  [
    "an entity importing another entity's private file",
    'entities/tasks',
    '../recordings/library-api',
    /An entity imports another entity only through its index\.ts/,
  ],
  ['lib/ importing an entity', 'lib', '../entities/tasks', /Shared code/],
  ['lib/ importing a feature', 'lib', '../features/chat/chat-api', /Shared code/],
  ['components/ importing an entity', 'components', '../entities/holds/hold-control', /Shared code/],
  ['components/ importing app/', 'components', '../app/router', /Shared code/],
  ['i18n/ importing a feature', 'i18n', '../features/chat/chat-api', /Shared code/],
];

/** Imports that must pass: each direction downwards, and a folder's own files. */
const allowed: Array<[direction: string, from: string, specs: string[]]> = [
  ['app/ composing features and entities', 'app', ['../features/auth/guards', '../entities/tasks', '../lib/api']],
  [
    'a feature using entities, shared code and its own files',
    'features/chat',
    ['../../entities/tasks', '../../lib/api', '../../components/spinner', '../../i18n/feature', './model'],
  ],
  [
    "an entity using shared code, its own files and another entity's index.ts",
    'entities/tasks',
    ['../../lib/api', '../../components/spinner', './tasks-api', '../recordings'],
  ],
  ['shared code using shared code', 'lib', ['./api', '../components/spinner', '../i18n/feature']],
];

const fixture = (folder: string) => `web/src/${folder}/boundary-fixture.ts`;
const source = (specs: string[]) =>
  specs.map((spec, index) => `import * as m${index} from '${spec}';`).join('\n') +
  `\nexport const all = [${specs.map((_, index) => `m${index}`).join(', ')}];\n`;

describe('web import boundaries (eslint.config.js)', () => {
  it.each(forbidden)('%s fails lint', async (_direction, from, spec, message) => {
    const errors = await boundaryErrors(fixture(from), source([spec]));
    expect(errors).toEqual([expect.stringMatching(PREFIX)]);
    expect(errors[0]).toMatch(message);
  });

  it.each(allowed)('%s passes', async (_direction, from, specs) => {
    expect(await boundaryErrors(fixture(from), source(specs))).toEqual([]);
  });
});
