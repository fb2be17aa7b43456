// The task pages' filters and sort, kept in the URL query (a reload, Back or a shared link keeps
// them; mails link to `?task=<id>`). A value the form could not have written is dropped rather
// than sent, so a hand-edited link never turns the list into a 400.
import {
  TASK_DUE_FILTERS,
  TASK_SORTS,
  TASK_STATUSES,
  type TaskDueFilter,
  type TaskSort,
  type TaskStatus,
} from '@earshot/contracts/constants';
import type { TaskFilters } from '../../entities/tasks';

export const FILTER_KEYS = ['mine', 'assignee', 'status', 'clientId', 'due', 'sort', 'order'] as const;
const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function oneOf<T extends string>(list: readonly T[], value: string | null): T | undefined {
  return value !== null && (list as readonly string[]).includes(value) ? (value as T) : undefined;
}

export function filtersFromParams(params: URLSearchParams): TaskFilters {
  const filters: TaskFilters = {};
  if (params.get('mine') === 'true') filters.mine = true;
  for (const key of ['assignee', 'clientId'] as const) {
    const id = params.get(key);
    if (id && ID.test(id)) filters[key] = id;
  }
  const status = oneOf<TaskStatus>(TASK_STATUSES, params.get('status'));
  if (status) filters.status = status;
  const due = oneOf<TaskDueFilter>(TASK_DUE_FILTERS, params.get('due'));
  if (due) filters.due = due;
  const sort = oneOf<TaskSort>(TASK_SORTS, params.get('sort'));
  if (sort) filters.sort = sort;
  const order = oneOf(['asc', 'desc'] as const, params.get('order'));
  if (order) filters.order = order;
  return filters;
}

/** `params` with the filters written in (empty ones removed); other keys (`task`) stay. */
export function paramsWithFilters(params: URLSearchParams, filters: TaskFilters): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const key of FILTER_KEYS) {
    const value = filters[key];
    if (value === true) next.set(key, 'true');
    else if (typeof value === 'string' && value) next.set(key, value);
    else next.delete(key);
  }
  return next;
}

/** Filters the person chose (the sort is not one). */
export function activeFilterCount(filters: TaskFilters): number {
  return (['mine', 'assignee', 'status', 'clientId', 'due'] as const).filter((key) => filters[key]).length;
}

/** Today as the API's days are counted (UTC). */
export function todayUtc(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** An open task whose due day has passed (UTC, as the API's `overdue`). */
export function isOverdue(task: { status: TaskStatus; dueDate: string | null }, today = todayUtc()): boolean {
  return task.status !== 'done' && task.dueDate !== null && task.dueDate < today;
}
