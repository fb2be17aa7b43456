import { and, eq, isNotNull, ne, sql } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { reminders, tasks } from '../db/schema';

/**
 * Records a reminder for every open, assigned task due on `day` that has none for that date yet,
 * and answers those tasks. Done in one statement with ON CONFLICT, so two replicas running the
 * job at once remind each task once.
 */
export async function claimDueReminders(tx: Db, day: string) {
  const due = await tx
    .select({
      id: tasks.id,
      companyId: tasks.companyId,
      title: tasks.title,
      assigneeId: tasks.assigneeId,
      dueDate: tasks.dueDate,
    })
    .from(tasks)
    .where(
      and(
        eq(tasks.dueDate, day),
        ne(tasks.status, 'done'),
        isNotNull(tasks.assigneeId),
        sql`not exists (select 1 from ${reminders} r where r.task_id = ${tasks.id} and r.due_date = ${tasks.dueDate})`,
      ),
    );
  if (due.length === 0) return [];
  const claimed = await tx
    .insert(reminders)
    .values(due.map((t) => ({ taskId: t.id, dueDate: day, companyId: t.companyId })))
    .onConflictDoNothing()
    .returning({ taskId: reminders.taskId });
  const mine = new Set(claimed.map((r) => r.taskId));
  return due.filter((t) => mine.has(t.id)).map((t) => ({ ...t, assigneeId: t.assigneeId!, dueDate: t.dueDate! }));
}
