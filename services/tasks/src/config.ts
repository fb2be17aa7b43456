import { z } from 'zod';
import type { BaseConfig } from '@earshot/kit';

/** Environment keys of the tasks service. */
export const tasksConfigShape = {
  /** From this hour (UTC) of a task's due date on, its assignee is reminded (task.fell_due), once. */
  TASK_REMINDER_HOUR_UTC: z.coerce.number().int().min(0).max(23).default(7),
};

export type TasksConfig = BaseConfig & z.infer<z.ZodObject<typeof tasksConfigShape>>;
