/** @jest-environment node */
// The import boundaries of web/src are enforced by the project's own ESLint configuration: this
// reads the rule from eslint.config.js (as it applies to a feature file) and runs it on imports
// that cross a boundary. Removing or loosening the rule there fails these tests.
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

describe('web import boundaries (eslint.config.js)', () => {
  it('a feature importing another feature fails lint', async () => {
    const errors = await boundaryErrors(
      'web/src/features/chat/boundary-fixture.ts',
      "import { formatDate } from '../transcripts/format';\nexport const f = formatDate;\n",
    );
    expect(errors).toEqual([
      expect.stringMatching(
        /^import-x\/no-restricted-paths: Unexpected path .* imported in restricted zone\. A feature never imports another feature/,
      ),
    ]);
  });

  it('a feature importing app/ fails lint', async () => {
    const errors = await boundaryErrors(
      'web/src/features/chat/boundary-fixture.ts',
      "import { AppRoutes } from '../../app/router';\nexport const r = AppRoutes;\n",
    );
    expect(errors).toEqual([
      expect.stringMatching(
        /^import-x\/no-restricted-paths: Unexpected path .* imported in restricted zone\. Features never import the composition root/,
      ),
    ]);
  });

  it('shared code importing a feature fails lint', async () => {
    const errors = await boundaryErrors(
      'web/src/lib/boundary-fixture.ts',
      "import { chatApi } from '../features/chat/chat-api';\nexport const c = chatApi;\n",
    );
    expect(errors).toEqual([
      expect.stringMatching(
        /^import-x\/no-restricted-paths: Unexpected path .* imported in restricted zone\. Shared code/,
      ),
    ]);
  });

  it('features use lib/, components/ and their own files; app/ composes features', async () => {
    expect(
      await boundaryErrors(
        'web/src/features/chat/boundary-fixture.ts',
        [
          "import { api } from '../../lib/api';",
          "import { Spinner } from '../../components/spinner';",
          "import { MESSAGE_MAX } from './model';",
          'export const all = [api, Spinner, MESSAGE_MAX];',
        ].join('\n'),
      ),
    ).toEqual([]);
    expect(
      await boundaryErrors(
        'web/src/app/boundary-fixture.ts',
        "import { RequireAuth } from '../features/auth/guards';\nexport const g = RequireAuth;\n",
      ),
    ).toEqual([]);
  });
});
