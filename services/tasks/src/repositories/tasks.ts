import { and, asc, eq, gte, inArray, isNotNull, isNull, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import type { TaskStatus } from '@earshot/contracts';
import type { Db } from '@earshot/kit';
import { tasks, type NewTaskRow, type TaskRow } from '../db/schema';

/**
 * Which tasks a caller sees: a company's (null: every company's, for the platform administrator);
 * with an owner (a member of a b2c company), only the tasks they made or were given.
 */
export interface TaskScope {
  companyId: string | null;
  ownerId: string | null;
}

const visible = (scope: TaskScope) =>
  and(
    scope.companyId === null ? undefined : eq(tasks.companyId, scope.companyId),
    scope.ownerId === null ? undefined : or(eq(tasks.createdBy, scope.ownerId), eq(tasks.assigneeId, scope.ownerId)),
  );

export async function findTask(db: Db, id: string, scope: TaskScope): Promise<TaskRow | undefined> {
  const [row] = await db
    .select()
    .from(tasks)
    .where(and(eq(tasks.id, id), visible(scope)));
  return row;
}

/** The task locked until the transaction ends: two edits of one task apply one after the other. */
export async function lockTask(tx: Db, id: string, scope: TaskScope): Promise<TaskRow | undefined> {
  const [row] = await tx
    .select()
    .from(tasks)
    .where(and(eq(tasks.id, id), visible(scope)))
    .for('update');
  return row;
}

export async function insertTask(tx: Db, values: NewTaskRow): Promise<TaskRow> {
  const [row] = await tx.insert(tasks).values(values).returning();
  return row!;
}

export async function updateTask(tx: Db, id: string, patch: Partial<NewTaskRow>): Promise<TaskRow> {
  const [row] = await tx
    .update(tasks)
    .set({ ...patch, updatedAt: sql`clock_timestamp()` })
    .where(eq(tasks.id, id))
    .returning();
  return row!;
}

export async function deleteTask(tx: Db, id: string): Promise<void> {
  await tx.delete(tasks).where(eq(tasks.id, id));
}

/** The tasks made from a run's items, by item. */
export async function tasksOfRun(tx: Db, runId: string, items: number[]): Promise<Map<number, TaskRow>> {
  const rows = await tx
    .select()
    .from(tasks)
    .where(and(eq(tasks.runId, runId), inArray(tasks.runItem, items)));
  return new Map(rows.map((row) => [row.runItem!, row]));
}

// ---------------------------------------------------------------- the list, with keyset pagination

export type TaskSort = 'dueDate' | 'createdAt' | 'title' | 'status';

/**
 * Each sort as a non-null SQL expression (a task without a due date sorts after every date when
 * ascending, before them when descending) and how a cursor's value is cast back to it. The id
 * breaks ties, so the order is total and a page boundary never repeats or skips a row.
 */
const SORTS: Record<TaskSort, { key: SQL; cast: (value: string) => SQL }> = {
  dueDate: { key: sql`coalesce(${tasks.dueDate}, date '9999-12-31')`, cast: (v) => sql`${v}::date` },
  createdAt: { key: sql`${tasks.createdAt}`, cast: (v) => sql`${v}::timestamptz` },
  title: { key: sql`lower(${tasks.title})`, cast: (v) => sql`${v}::text` },
  status: {
    key: sql`array_position(array['todo', 'in_progress', 'done'], ${tasks.status})`,
    cast: (v) => sql`${v}::integer`,
  },
};

export interface TaskFilter {
  scope: TaskScope;
  assigneeId?: string;
  status?: TaskStatus;
  clientId?: string;
  fileId?: string;
  /** Inclusive days, YYYY-MM-DD; `open`: not done; `none`: no due date. */
  dueFrom?: string;
  dueTo?: string;
  open?: boolean;
  noDueDate?: boolean;
}

export interface Keyset {
  sort: TaskSort;
  order: 'asc' | 'desc';
  /** The last row of the previous page: its sort key (as text) and id. */
  after?: { value: string; id: string };
  limit: number;
}

function filterOf(f: TaskFilter): SQL | undefined {
  return and(
    visible(f.scope),
    f.assigneeId ? eq(tasks.assigneeId, f.assigneeId) : undefined,
    f.status ? eq(tasks.status, f.status) : undefined,
    f.clientId ? eq(tasks.clientId, f.clientId) : undefined,
    f.fileId ? eq(tasks.linkFileId, f.fileId) : undefined,
    f.dueFrom ? gte(tasks.dueDate, f.dueFrom) : undefined,
    f.dueTo ? lte(tasks.dueDate, f.dueTo) : undefined,
    f.open ? ne(tasks.status, 'done') : undefined,
    f.noDueDate ? isNull(tasks.dueDate) : undefined,
  );
}

/** One page: rows with their sort key as text (what the next cursor carries). */
export async function listTasks(db: Db, filter: TaskFilter, page: Keyset): Promise<{ row: TaskRow; key: string }[]> {
  const { key, cast } = SORTS[page.sort];
  const after = page.after
    ? page.order === 'asc'
      ? sql`(${key}, ${tasks.id}) > (${cast(page.after.value)}, ${page.after.id}::uuid)`
      : sql`(${key}, ${tasks.id}) < (${cast(page.after.value)}, ${page.after.id}::uuid)`
    : undefined;
  const direction = page.order === 'asc' ? sql`asc` : sql`desc`;
  const rows = await db
    .select({ row: tasks, key: sql<string>`(${key})::text` })
    .from(tasks)
    .where(and(filterOf(filter), after))
    .orderBy(sql`${key} ${direction}`, sql`${tasks.id} ${direction}`)
    .limit(page.limit);
  return rows;
}

/** Tasks due within days (inclusive), for the calendar. */
export async function tasksDueBetween(db: Db, scope: TaskScope, from: string, to: string): Promise<TaskRow[]> {
  return db
    .select()
    .from(tasks)
    .where(and(visible(scope), gte(tasks.dueDate, from), lte(tasks.dueDate, to)))
    .orderBy(asc(tasks.dueDate), asc(tasks.id));
}

/** A person's tasks with a due date (their iCalendar feed), newest due date first. */
export async function tasksOfAssignee(db: Db, userId: string, limit: number): Promise<TaskRow[]> {
  return db
    .select()
    .from(tasks)
    .where(and(eq(tasks.assigneeId, userId), isNotNull(tasks.dueDate)))
    .orderBy(sql`${tasks.dueDate} desc`, asc(tasks.id))
    .limit(limit);
}
