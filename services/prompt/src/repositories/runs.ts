import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { analysisRuns, promptVersions, transcripts, type NewRunRow, type RunRow } from '../db/schema';

/** A run with the name and expected format of the prompt version it uses. */
export type RunWithPrompt = RunRow & {
  promptName: string;
  expectedFormat: (typeof promptVersions.$inferSelect)['expectedFormat'];
};

const withPrompt = {
  run: analysisRuns,
  promptName: promptVersions.name,
  expectedFormat: promptVersions.expectedFormat,
};
const versionJoin = and(
  eq(promptVersions.promptId, analysisRuns.promptId),
  eq(promptVersions.version, analysisRuns.promptVersion),
);
const flatten = (
  rows: { run: RunRow; promptName: string; expectedFormat: RunWithPrompt['expectedFormat'] }[],
): RunWithPrompt[] => rows.map((r) => ({ ...r.run, promptName: r.promptName, expectedFormat: r.expectedFormat }));

/** Makes runs; those of an event already applied (same source event and prompt) are skipped. */
export async function insertRuns(tx: Db, rows: NewRunRow[]): Promise<RunRow[]> {
  if (rows.length === 0) return [];
  return tx.insert(analysisRuns).values(rows).onConflictDoNothing().returning();
}

/** A file's runs, newest first (at most `limit`). */
export async function listRuns(db: Db, fileId: string, limit: number): Promise<RunWithPrompt[]> {
  return flatten(
    await db
      .select(withPrompt)
      .from(analysisRuns)
      .innerJoin(promptVersions, versionJoin)
      .where(eq(analysisRuns.fileId, fileId))
      .orderBy(desc(analysisRuns.createdAt), desc(analysisRuns.id))
      .limit(limit),
  );
}

/** A run of the company (null: any company's) and, with an `owner` (a b2c member), of a file they uploaded. */
export async function findRun(
  db: Db,
  id: string,
  companyId: string | null,
  owner: string | null = null,
): Promise<RunWithPrompt | undefined> {
  const owned = owner
    ? inArray(
        analysisRuns.fileId,
        db.select({ fileId: transcripts.fileId }).from(transcripts).where(eq(transcripts.uploadedBy, owner)),
      )
    : undefined;
  const [row] = flatten(
    await db
      .select(withPrompt)
      .from(analysisRuns)
      .innerJoin(promptVersions, versionJoin)
      .where(
        and(eq(analysisRuns.id, id), companyId === null ? undefined : eq(analysisRuns.companyId, companyId), owned),
      ),
  );
  return row;
}

export async function deleteRun(tx: Db, id: string): Promise<boolean> {
  return (await tx.delete(analysisRuns).where(eq(analysisRuns.id, id)).returning({ id: analysisRuns.id })).length > 0;
}

export async function deleteRunsOfFile(tx: Db, fileId: string): Promise<void> {
  await tx.delete(analysisRuns).where(eq(analysisRuns.fileId, fileId));
}

/** Runs of the same company as the candidate row that are running now. */
const companyRunning = sql`(select count(*) from prompt.analysis_runs w
  where w.company_id = ${analysisRuns.companyId} and w.status = 'running')`;

/**
 * Takes a pending run whose transcript text is whole, marking it running, fairly between
 * companies: the company with the fewest runs running, then the one whose last turn is oldest
 * (round-robin), goes first with its oldest run; one with `companyCap` runs running waits.
 * SKIP LOCKED: two takers never get the same run.
 */
export async function claimNext(tx: Db, companyCap = 2): Promise<RunRow | undefined> {
  const ready = tx
    .select({ fileId: transcripts.fileId })
    .from(transcripts)
    .where(
      sql`${transcripts.completedAt} is not null and cardinality(${transcripts.partsReceived}) >= ${transcripts.parts}`,
    );
  const next = tx
    .select({ id: analysisRuns.id })
    .from(analysisRuns)
    .where(
      and(
        eq(analysisRuns.status, 'pending'),
        inArray(analysisRuns.fileId, ready),
        sql`${companyRunning} < ${companyCap}`,
      ),
    )
    .orderBy(
      companyRunning,
      sql`(select t.served_at from prompt.queue_turns t where t.company_id = ${analysisRuns.companyId}) nulls first`,
      asc(analysisRuns.createdAt),
    )
    .limit(1)
    .for('update', { skipLocked: true });
  const [row] = await tx
    .update(analysisRuns)
    .set({ status: 'running', startedAt: new Date() })
    .where(inArray(analysisRuns.id, next))
    .returning();
  if (row)
    await tx.execute(sql`insert into prompt.queue_turns (company_id, served_at) values (${row.companyId}, clock_timestamp())
      on conflict (company_id) do update set served_at = excluded.served_at`);
  return row;
}

export async function updateRun(db: Db, id: string, patch: Partial<NewRunRow>): Promise<RunRow | undefined> {
  const [row] = await db.update(analysisRuns).set(patch).where(eq(analysisRuns.id, id)).returning();
  return row;
}

/** A run's end state; a completed run's progress reads all parts done (one part when none was counted). */
export async function finishRun(tx: Db, id: string, patch: Partial<NewRunRow>): Promise<RunRow | undefined> {
  const total = sql`coalesce(${analysisRuns.progress} -> 'total', '1'::jsonb)`;
  const progress =
    patch.status === 'completed' ? { progress: sql`jsonb_build_object('done', ${total}, 'total', ${total})` } : {};
  const [row] = await tx
    .update(analysisRuns)
    .set({ ...patch, ...progress, finishedAt: new Date() })
    .where(eq(analysisRuns.id, id))
    .returning();
  return row;
}

/** Runs left running by a process that stopped: marked failed, returned for their events. */
export async function failInterrupted(tx: Db, reason: string): Promise<RunRow[]> {
  return tx
    .update(analysisRuns)
    .set({ status: 'failed', error: reason, finishedAt: new Date() })
    .where(eq(analysisRuns.status, 'running'))
    .returning();
}
