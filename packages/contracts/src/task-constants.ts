// Tasks' run-time constants without zod (api/tasks.ts builds its schemas on them): the web's task
// pages need the statuses, filters and limits, and may not load zod outside its form dialogs.
export const TASK_STATUSES = ['todo', 'in_progress', 'done'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const TASK_LIMITS = {
  titleMax: 200,
  descriptionMax: 5000,
  pageSizeMax: 100,
  pageSizeDefault: 50,
  calendarDaysMax: 62,
} as const;

/** Due filter: overdue (before today, not done), today, week (today and the 6 days after), none (no due date). Days are UTC. */
export const TASK_DUE_FILTERS = ['overdue', 'today', 'week', 'none'] as const;
export type TaskDueFilter = (typeof TASK_DUE_FILTERS)[number];
export const TASK_SORTS = ['dueDate', 'createdAt', 'title', 'status'] as const;
export type TaskSort = (typeof TASK_SORTS)[number];
