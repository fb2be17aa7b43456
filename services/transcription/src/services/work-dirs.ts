import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { BaseConfig, Db } from '@earshot/kit';
import { liveLeases } from '../repositories/jobs';

/** One known parent for every job's temporary files, so that what a crash leaves behind can be found. */
export const workRootOf = (config: Pick<BaseConfig, 'DATA_DIR'>) => join(config.DATA_DIR, 'tmp', 'transcription');

const dirName = (job: { fileId: string; workerId: string }) => `${job.fileId}.${job.workerId}`;

/** The temporary directory of one attempt: the job and the worker holding it. */
export const jobDir = (root: string, job: { fileId: string; workerId: string }) => join(root, dirName(job));

/**
 * Removes job directories nobody is working in: a worker that was killed (SIGKILL, out of memory,
 * power) never ran its cleanup. A directory whose job is still leased to its worker (another
 * process sharing DATA_DIR) stays. Returns the names removed.
 */
export async function removeStaleJobDirs(db: Db, root: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(root);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  if (names.length === 0) return [];
  const live = new Set((await liveLeases(db)).map(dirName));
  const stale = names.filter((name) => !live.has(name));
  await Promise.all(stale.map((name) => rm(join(root, name), { recursive: true, force: true })));
  return stale;
}
