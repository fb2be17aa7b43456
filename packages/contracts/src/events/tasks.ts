import { z } from 'zod';
import { TASK_STATUSES, TaskLink } from '../api/tasks';
import { change, defineEvent } from './envelope';

const topic = 'earshot.tasks';

/** A task as events carry it (audit before/after; the messaging service notifies its assignee, the prompt service counts open tasks per client). */
export const TaskState = z.object({
  title: z.string(),
  description: z.string(),
  status: z.enum(TASK_STATUSES),
  assigneeId: z.string().nullable(),
  dueDate: z.string().nullable(),
  clientId: z.string().nullable(),
  link: TaskLink.nullable(),
  createdBy: z.string(),
});
export type TaskState = z.infer<typeof TaskState>;

export const taskEvents = [
  defineEvent({
    type: 'task.created',
    version: 1,
    topic,
    description: "A task was created (by hand, from a transcript's words or from an analysis run's action items).",
    data: change(TaskState),
  }),
  defineEvent({
    type: 'task.updated',
    version: 1,
    topic,
    description: 'A task was changed (its status, assignee, due date or text); a changed assignee is notified.',
    data: change(TaskState),
  }),
  defineEvent({ type: 'task.deleted', version: 1, topic, description: 'A task was deleted.', data: change(TaskState) }),
  defineEvent({
    type: 'task.fell_due',
    version: 1,
    topic,
    description:
      "The morning (UTC) of an open task's due date came: its assignee is reminded, once per task and due date.",
    data: z.object({ id: z.string(), title: z.string(), assigneeId: z.string(), dueDate: z.string() }),
  }),
] as const;
