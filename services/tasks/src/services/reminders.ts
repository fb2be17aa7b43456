import { SYSTEM_ACTOR } from '@earshot/contracts';
import type { ServiceContext } from '@earshot/kit';
import type { TasksConfig } from '../config';
import { claimDueReminders } from '../repositories/reminders';
import { utcDay } from './tasks';

/** How often the job looks (the reminder goes out within this after the hour). */
export const REMINDER_POLL_MS = 5 * 60_000;

/**
 * The morning reminder of due tasks: from TASK_REMINDER_HOUR_UTC on a day, every open task with
 * an assignee due that day gets one task.fell_due, recorded with it so that it never repeats (a
 * task moved to a later day is reminded again on that day). Run at start and on a timer, like the
 * tenant's monthly grants; `now` is a parameter so tests choose the time.
 */
export class ReminderJob {
  constructor(private readonly ctx: ServiceContext<TasksConfig>) {}

  /** The reminders sent by this run. */
  async run(now = new Date()): Promise<number> {
    if (now.getUTCHours() < this.ctx.config.TASK_REMINDER_HOUR_UTC) return 0;
    const day = utcDay(now);
    return this.ctx.transact(async (tx, emit) => {
      const due = await claimDueReminders(tx, day);
      for (const task of due) {
        emit({
          type: 'task.fell_due',
          companyId: task.companyId,
          actor: SYSTEM_ACTOR,
          data: { id: task.id, title: task.title, assigneeId: task.assigneeId, dueDate: task.dueDate },
        });
      }
      return due.length;
    });
  }
}
