import { z } from 'zod';
import { Id } from '../common';
import { RedactedCount } from './redacted';
import { TASK_DUE_FILTERS, TASK_LIMITS, TASK_SORTS, TASK_STATUSES } from '../task-constants';

// Tasks and the calendar: the tasks service answers /api/tasks and /api/calendar.

const noNul = (s: string) => !s.includes('\u0000');
const NO_NUL = 'must not contain NUL characters';

export { TASK_DUE_FILTERS, TASK_LIMITS, TASK_SORTS, TASK_STATUSES, type TaskStatus } from '../task-constants';

/** A calendar day, `YYYY-MM-DD`, that exists (2026-02-30 is refused). */
export const IsoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date as YYYY-MM-DD')
  .refine((value) => {
    const date = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
  }, 'must be a real calendar date');

/** A moment of a recording: the file and the second the task is about. */
export const TaskLink = z
  .object({
    fileId: Id,
    seconds: z
      .number()
      .min(0)
      .max(7 * 24 * 3600),
  })
  .strict();
export type TaskLink = z.infer<typeof TaskLink>;

export const TaskDto = z.object({
  _id: z.string(),
  title: z.string(),
  description: z.string(),
  status: z.enum(TASK_STATUSES),
  assigneeId: z.string().nullable(),
  /** YYYY-MM-DD. */
  dueDate: z.string().nullable(),
  clientId: z.string().nullable(),
  link: TaskLink.nullable(),
  createdBy: z.string(),
  createdAt: z.string(),
  /** The "Action items" run and item (its index) the task was made from; absent or null for one made by hand. */
  source: z.object({ runId: z.string(), item: z.number().int() }).nullable().optional(),
});
export type TaskDto = z.infer<typeof TaskDto>;

/** POST /tasks and PUT /tasks/{id}: the task as stored, and how many spans redaction hid in its title and description. */
export const TaskSaved = TaskDto.extend(RedactedCount.shape);
export type TaskSaved = z.infer<typeof TaskSaved>;

const Title = z.string().trim().min(1, 'Title is required').max(TASK_LIMITS.titleMax).refine(noNul, NO_NUL);
const Description = z.string().trim().max(TASK_LIMITS.descriptionMax).refine(noNul, NO_NUL);

/** POST /api/tasks. */
export const TaskCreateBody = z
  .object({
    title: Title,
    description: Description.default(''),
    status: z.enum(TASK_STATUSES).default('todo'),
    /** A member of the caller's company; null: nobody yet. */
    assigneeId: Id.nullable().default(null),
    dueDate: IsoDate.nullable().default(null),
    clientId: Id.nullable().default(null),
    link: TaskLink.nullable().default(null),
  })
  .strict();
export type TaskCreateBody = z.infer<typeof TaskCreateBody>;
export type TaskCreateInput = z.input<typeof TaskCreateBody>;

/** PUT /api/tasks/{id}: any of the fields; those left out keep their value (a kanban move sends only status). */
export const TaskUpdateBody = z
  .object({
    title: Title.optional(),
    description: Description.optional(),
    status: z.enum(TASK_STATUSES).optional(),
    assigneeId: Id.nullable().optional(),
    dueDate: IsoDate.nullable().optional(),
    clientId: Id.nullable().optional(),
    link: TaskLink.nullable().optional(),
  })
  .strict()
  .refine((body) => Object.keys(body).length > 0, 'Nothing to change');
export type TaskUpdateBody = z.infer<typeof TaskUpdateBody>;

const flag = z.enum(['true', 'false']).transform((v) => v === 'true');

/** GET /api/tasks: filters, a sort and keyset pagination (`cursor` is the previous page's `nextCursor`, opaque). */
export const TaskListQuery = z
  .object({
    mine: flag.optional(),
    assignee: Id.optional(),
    status: z.enum(TASK_STATUSES).optional(),
    clientId: Id.optional(),
    due: z.enum(TASK_DUE_FILTERS).optional(),
    /** Tasks linked to one recording (the viewer's list). */
    fileId: Id.optional(),
    sort: z.enum(TASK_SORTS).default('dueDate'),
    order: z.enum(['asc', 'desc']).default('asc'),
    cursor: z.string().max(500).refine(noNul, NO_NUL).optional(),
    limit: z.coerce.number().int().min(1).max(TASK_LIMITS.pageSizeMax).default(TASK_LIMITS.pageSizeDefault),
  })
  .strict();
export type TaskListQuery = z.infer<typeof TaskListQuery>;
export type TaskListQueryInput = z.input<typeof TaskListQuery>;

export const TaskPage = z.object({ items: z.array(TaskDto), nextCursor: z.string().nullable() });
export type TaskPage = z.infer<typeof TaskPage>;

/** POST /api/tasks/from-run/{runId}: which of the run's proposed action items (their indexes) become tasks. */
export const TasksFromRunBody = z.object({ items: z.array(z.number().int().min(0).max(49)).min(1).max(50) }).strict();
export type TasksFromRunBody = z.infer<typeof TasksFromRunBody>;
export const TasksFromRunParams = z.object({ runId: Id }).strict();
export const TaskList = z.object({ items: z.array(TaskDto) });

/** GET /api/tasks/members: who a task may be given to (every role; the platform administrator names the company). */
export const TaskMembersQuery = z.object({ companyId: Id.optional() }).strict();
export type TaskMembersQuery = z.infer<typeof TaskMembersQuery>;
export type TaskList = z.infer<typeof TaskList>;

// ---------------------------------------------------------------- calendar

/** GET /api/calendar: `from` and `to` are days (UTC), both included, at most 62 days apart. */
export const CalendarQuery = z
  .object({ from: IsoDate, to: IsoDate })
  .strict()
  .refine((q) => q.from <= q.to, { path: ['to'], message: 'must not be before from' })
  .refine((q) => (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 < TASK_LIMITS.calendarDaysMax, {
    path: ['to'],
    message: `at most ${TASK_LIMITS.calendarDaysMax} days after from`,
  });
export type CalendarQuery = z.infer<typeof CalendarQuery>;

export const CalendarDto = z.object({
  /** `date`: when the recording was made, or uploaded when that is unknown (ISO 8601 timestamp). */
  recordings: z.array(z.object({ fileId: z.string(), originalName: z.string(), date: z.string() })),
  /** `due`: YYYY-MM-DD. The rest lets the calendar colour a task and say whether the caller may move it. */
  tasks: z.array(
    z.object({
      _id: z.string(),
      title: z.string(),
      due: z.string(),
      status: z.enum(TASK_STATUSES),
      assigneeId: z.string().nullable(),
      createdBy: z.string(),
    }),
  ),
});
export type CalendarDto = z.infer<typeof CalendarDto>;

/** POST /api/calendar/feed: a new secret address of the caller's own tasks as iCalendar; the old one stops working. */
export const CalendarFeedDto = z.object({ url: z.string() });
export type CalendarFeedDto = z.infer<typeof CalendarFeedDto>;
export const CalendarFeedParams = z
  .object({ token: z.string().regex(/^[A-Za-z0-9_-]{32,64}\.ics$/, 'not a feed address') })
  .strict();
