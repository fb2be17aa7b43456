// The task dialog loads with zod and react-hook-form, so it stays a lazy chunk of its own: the task
// pages and the transcript's "Make a task" open it through this one handle, which the index exports
// without pulling the dialog into their chunks.
import { lazy } from 'react';

export const TaskDialog = lazy(() => import('./task-dialog'));
