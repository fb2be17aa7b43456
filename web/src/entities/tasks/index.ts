// Tasks as other features use them: the task list query and the edit rule, the calls the task
// pages, the calendar and the transcript pages share, the task dialog's strings, and the transcript's
// own task tools (entities/transcripts) use.
export { TaskDialog } from './lazy-task-dialog';
export { catalogue as taskDialogCatalogue } from './task-dialog-i18n';
export {
  mayEditTask,
  nameIn,
  type TaskDirectory,
  type TaskFilters,
  useMayCreateTasks,
  useMoveTaskMutation,
  useTaskDirectory,
  useTasksFromRunMutation,
  useTasksInfiniteQuery,
} from './tasks-api';
