import { spawn } from 'node:child_process';
import { JobError } from '../services/job-error';

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** True when the program was killed at `timeoutMs`. */
  timedOut?: boolean;
}

export interface RunOptions {
  signal?: AbortSignal;
  /** Keep at most this many characters of stderr (the tail: errors come last). */
  stderrLimit?: number;
  /** Called with each stderr line instead of keeping it (ffmpeg's silencedetect reports there). */
  onStderrLine?: (line: string) => void;
  /** Kill the program (SIGKILL) once it has run this long. */
  timeoutMs?: number;
}

/**
 * Runs a program without a shell (arguments are never interpreted). A program that is not there
 * becomes a JobError naming it: `missing` is the reason a person reads.
 */
export function run(
  command: string,
  args: readonly string[],
  missing: string,
  options: RunOptions = {},
): Promise<RunResult> {
  const limit = options.stderrLimit ?? 8000;
  return new Promise((resolve, reject) => {
    options.signal?.throwIfAborted();
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], signal: options.signal });
    let stdout = '';
    let stderr = '';
    let pending = '';
    let timedOut = false;
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            child.kill('SIGKILL');
          }, options.timeoutMs);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      if (options.onStderrLine) {
        const lines = (pending + chunk).split('\n');
        pending = lines.pop() ?? '';
        lines.forEach(options.onStderrLine);
      }
      stderr = (stderr + chunk).slice(-limit);
    });
    child.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (error.code === 'ENOENT' || error.code === 'EACCES') reject(new JobError(missing, false));
      else reject(error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      if (pending && options.onStderrLine) options.onStderrLine(pending);
      resolve({ code, stdout, stderr, ...(timedOut ? { timedOut } : {}) });
    });
  });
}

/** The last meaningful lines of a program's error output, for a failure reason. */
export function tail(stderr: string, lines = 2): string {
  return stderr
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(-lines)
    .join(' ')
    .slice(0, 300);
}
