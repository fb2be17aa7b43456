// `npm run bench:bundle`: builds the web console, then reports the gzipped JavaScript a browser
// downloads before it can use (1) the sign-in page and (2) the signed-in shell (layout + the home
// chat page), from Vite's build manifest: the entry and its static imports, the app the entry
// shows (the signed-out app, or the signed-in one with its store, router and i18next: web/src/main.tsx),
// each screen's lazy chunks and their static imports, and the lazy chunks those screens render at
// once (listed below; the same files Chromium requests, checked with playwright-core when the list
// changes).
// Budget (DESIGN.md): signed-in shell ≤ 170 KB gzipped; goals: sign-in ≤ 100 KB,
// shell ≤ 140 KB. `BUNDLE_REPORT=1 npm run build -w web` draws what each chunk holds.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'web', 'dist');
const BUDGET_KB = 170;
const GOALS_KB = { signIn: 100, shell: 140 };

if (!process.argv.includes('--no-build')) {
  const build = spawnSync('npm', ['run', 'build', '-w', 'web'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));

/** The chunk files a manifest entry needs before it runs: itself and its static imports. */
function staticClosure(key, files = new Set(), css = new Set()) {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`No chunk for ${key} in the build manifest`);
  if (files.has(chunk.file)) return { files, css };
  files.add(chunk.file);
  for (const sheet of chunk.css ?? []) css.add(sheet);
  for (const dependency of chunk.imports ?? []) staticClosure(dependency, files, css);
  return { files, css };
}

function gzipKb(file) {
  return gzipSync(readFileSync(join(dist, file)), { level: 9 }).length / 1024;
}

function measure(name, lazyKeys) {
  const files = new Set();
  const css = new Set();
  for (const key of ['index.html', ...lazyKeys]) staticClosure(key, files, css);
  const js = [...files].filter((file) => file.endsWith('.js'));
  const jsKb = js.reduce((sum, file) => sum + gzipKb(file), 0);
  const cssKb = [...css].reduce((sum, file) => sum + gzipKb(file), 0);
  return { name, files: js.length, jsKb, cssKb, js };
}

// Rendered on every screen (its chunk is requested at once, though it shows only on phones).
const EVERY_SCREEN = ['src/features/pwa/install-prompt.tsx'];
const screens = [
  // The signed-out app holds its four pages (sign-in, sign-up, two-step, reset password).
  measure('sign-in page', ['src/app/signed-out-app.tsx', ...EVERY_SCREEN]),
  // The header's credits bell is lazy but shown at once to every member of a company.
  measure('signed-in shell (layout + chat)', [
    'src/app/start-app.tsx',
    'src/features/layout/app-layout.tsx',
    'src/features/layout/header-credits.tsx',
    'src/features/chat/chat-page.tsx',
    ...EVERY_SCREEN,
  ]),
];

console.log('Initial JavaScript per screen (gzip -9):');
for (const screen of screens) {
  console.log(
    `  ${screen.name.padEnd(34)} ${screen.jsKb.toFixed(1).padStart(7)} KB JS in ${screen.files} files, ${screen.cssKb.toFixed(1)} KB CSS`,
  );
}
const [signIn, shell] = screens;
const ok = shell.jsKb <= BUDGET_KB;
console.log(`Signed-in shell budget ${BUDGET_KB} KB: ${ok ? 'within' : 'OVER'} (${shell.jsKb.toFixed(1)} KB)`);
const goal = (screen, kb) =>
  `${screen.name} ≤ ${kb} KB: ${screen.jsKb <= kb ? 'met' : `not met (${(screen.jsKb - kb).toFixed(1)} KB over)`}`;
console.log(`Goals: ${goal(signIn, GOALS_KB.signIn)}; ${goal(shell, GOALS_KB.shell)}`);

// The web imports only types and the zod-free constants from @earshot/contracts, except the lazy
// administration pages and dialogs, whose forms validate with the contracts' own schemas
// (react-hook-form + zodResolver): zod may be in their chunks and nowhere else (never the sign-in
// page, the shell, chat or the transcript pages). zod names its classes with strings that survive
// minifying.
// The task and hold dialogs are lazy chunks of their own, opened from the task pages, the viewer
// and the client and company pages.
const ADMIN_PAGES =
  /^src\/(features\/((users|clients|companies|b2c-users|feature-catalogue|audit-logs|prompts|pricing|email-templates|ai-config|custom-gpts)\/|analysis\/patterns-dialog\.tsx$)|entities\/(tasks\/task|holds\/hold)-dialog\.tsx$)/;
const assets = readdirSync(join(dist, 'assets')).filter((file) => file.endsWith('.js'));
const withZod = new Set(
  assets
    .filter((file) => /["'`]\$?ZodError["'`]/.test(readFileSync(join(dist, 'assets', file), 'utf8')))
    .map((file) => `assets/${file}`),
);
const entries = Object.entries(manifest)
  .filter(([, chunk]) => chunk.isEntry || chunk.isDynamicEntry)
  .map(([key]) => key);
const zodWhere = entries.filter((key) => [...staticClosure(key).files].some((file) => withZod.has(file)));
const misplaced = zodWhere.filter((key) => !ADMIN_PAGES.test(key));
console.log(zodWhere.length === 0 ? 'zod in the bundle: none' : `zod loaded by: ${zodWhere.join(', ')}`);
if (misplaced.length > 0) console.log(`zod where it must not be: ${misplaced.join(', ')}`);
process.exitCode = ok && misplaced.length === 0 ? 0 : 1;
