import { ContextTimers, createStorage, defineService, storageConfigShape, type StorageConfig } from '@earshot/kit';
import { tasksConfigShape, type TasksConfig } from './config';
import { migrations } from './db/migrations';
import { calendarRoutes } from './routes/calendar';
import { taskRoutes } from './routes/tasks';
import { CalendarService } from './services/calendar';
import { subscriptions } from './services/events';
import { tasksErasePart, tasksExportPart } from './services/privacy';
import { REMINDER_POLL_MS, ReminderJob } from './services/reminders';
import { TaskService } from './services/tasks';

type TasksServiceConfig = TasksConfig & StorageConfig;
const timers = new ContextTimers();

/** The tasks service: follow-ups from calls as tasks, and the company calendar. See README.md. */
export const tasksService = defineService<TasksServiceConfig>({
  name: 'tasks',
  schema: 'tasks',
  prefixes: ['/tasks', '/calendar'],
  migrations,
  // Storage: its part of a person's export is written there.
  configShape: { ...tasksConfigShape, ...storageConfigShape },
  async routes(app, ctx) {
    await taskRoutes(app, new TaskService(ctx));
    await calendarRoutes(app, new CalendarService(ctx));
  },
  // And a person's data: their tasks, exported or erased.
  subscriptions: (ctx) => [...subscriptions(), tasksExportPart(createStorage(ctx.config)), tasksErasePart],
  // Due reminders, looked at like the tenant's monthly grants: at start and on a timer; what was
  // sent is recorded, so a restart or a second replica sends nothing twice.
  async start(ctx) {
    const job = new ReminderJob(ctx);
    const remind = () =>
      job.run().then(
        () => undefined,
        (error: unknown) => ctx.logger.error({ err: error }, 'task reminders failed'),
      );
    await remind();
    timers.every(ctx, REMINDER_POLL_MS, () => void remind());
  },
  async stop(ctx) {
    timers.stop(ctx);
  },
});

export { ReminderJob } from './services/reminders';
export type { TasksConfig } from './config';
