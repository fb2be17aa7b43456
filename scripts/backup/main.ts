// `npm run backup -- --to DIR`, `npm run backup -- verify DIR` and `npm run restore -- --from DIR`:
// what they copy and why is in docs/operations.md ("Backups that restore").
import { pathToFileURL } from 'node:url';
import { loadBackupConfig } from './config';
import { verifyBackup } from './manifest';
import { restoreBackup } from './restore';
import { takeBackup } from './take';

const USAGE = [
  'usage: npm run backup -- --to DIR        a consistent backup of this Earshot into the new folder DIR',
  '       npm run backup -- verify DIR      checks every file of the backup in DIR against its manifest',
  '       npm run restore -- --from DIR     restores the backup in DIR into an empty DATA_DIR / DATABASE_URL',
].join('\n');

export interface CommandOptions {
  env?: NodeJS.ProcessEnv;
  print?: (line: string) => void;
}

/** Runs `backup` or `restore` with its arguments; the exit code (0 done, 1 failed or refused, 2 usage). */
export async function runBackupCommand(
  command: 'backup' | 'restore',
  args: string[],
  options: CommandOptions = {},
): Promise<number> {
  const print = options.print ?? console.log;
  const [flag, dir, ...rest] = args;
  if (rest.length || !dir) {
    print(USAGE);
    return 2;
  }
  try {
    if (command === 'backup' && flag === 'verify') {
      const problems = await verifyBackup(dir);
      for (const problem of problems) print(problem);
      print(
        problems.length
          ? `The backup in ${dir} is NOT intact: ${problems.length} problem(s).`
          : `${dir}: every file matches the manifest.`,
      );
      return problems.length ? 1 : 0;
    }
    const config = loadBackupConfig(options.env ?? process.env);
    if (command === 'backup' && flag === '--to') {
      const manifest = await takeBackup(dir, config, print);
      const bytes = manifest.files.reduce((sum, file) => sum + file.size, 0);
      print(`Backed up to ${dir}: ${manifest.files.length} file(s), ${bytes} bytes, at ${manifest.createdAt}.`);
      print('The master key (ENCRYPTION_MASTER_KEY) is not in it: keep it apart, a restore needs it.');
      return 0;
    }
    if (command === 'restore' && flag === '--from') {
      await restoreBackup(dir, config, print);
      print(`Restored ${dir}. Start Earshot with the same ENCRYPTION_MASTER_KEY as when the backup was taken.`);
      return 0;
    }
    print(USAGE);
    return 2;
  } catch (error) {
    // Refusals, bad configuration and failures alike: one line that says why, and a non-zero exit.
    if (error instanceof Error) {
      print(`${command === 'restore' ? 'Restore' : 'Backup'} failed: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [command, ...args] = process.argv.slice(2);
  if (command !== 'backup' && command !== 'restore') {
    console.error(USAGE);
    process.exit(2);
  }
  process.exitCode = await runBackupCommand(command, args);
}
