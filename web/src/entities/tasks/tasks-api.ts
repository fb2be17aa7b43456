// Tasks: the task pages, the task dialog and the transcript pages (a selection made
// into a task, an analysis run's action items) share these calls and rules. Only lazy page chunks
// import this file.
import type {
  TaskCreateInput,
  TaskDto,
  TaskList,
  TaskPage,
  TaskSaved,
  TaskUpdateBody,
  UserDropdownItem,
} from '@earshot/contracts';
import type { Role, TaskDueFilter, TaskSort, TaskStatus } from '@earshot/contracts/constants';
import { api } from '../../lib/api';
import { queryParams } from '../../lib/query-params';
import { roleOf } from '../../lib/stored-user';
import { useAppSelector } from '../../lib/store';
import { mayReadClients, useClientOptionsQuery, type ClientOption } from '../recordings';

/** What GET /tasks is asked for (the contracts' TaskListQuery without the cursor and limit). */
export interface TaskFilters {
  mine?: boolean;
  assignee?: string;
  status?: TaskStatus;
  clientId?: string;
  due?: TaskDueFilter;
  fileId?: string;
  sort?: TaskSort;
  order?: 'asc' | 'desc';
}

/** The query string of a list: empty filters left out (the server refuses empty values). */
export function taskQuery(filters: TaskFilters): Record<string, string | number> {
  return queryParams({
    mine: filters.mine ? 'true' : undefined,
    assignee: filters.assignee,
    status: filters.status,
    clientId: filters.clientId,
    due: filters.due,
    fileId: filters.fileId,
    sort: filters.sort,
    order: filters.order,
  });
}

const byId = (id: string) => `/tasks/${encodeURIComponent(id)}`;

/** A kanban move: the task, the column it goes to, and the lists (filters) it leaves and joins. */
export interface TaskMove {
  task: TaskDto;
  status: TaskStatus;
  from: TaskFilters;
  to: TaskFilters;
}

type Pages = { pages: TaskPage[]; pageParams: Array<string | null> };

export const tasksApi = api.enhanceEndpoints({ addTagTypes: ['Tasks'] }).injectEndpoints({
  endpoints: (build) => ({
    // Keyset pages in the order the server sorts; each next page after the previous one's cursor.
    tasks: build.infiniteQuery<TaskPage, TaskFilters, string | null>({
      infiniteQueryOptions: { initialPageParam: null, getNextPageParam: (last) => last.nextCursor },
      query: ({ queryArg, pageParam }) => ({
        url: '/tasks',
        params: { ...taskQuery(queryArg), ...(pageParam ? { cursor: pageParam } : {}) },
      }),
      providesTags: ['Tasks'],
    }),
    task: build.query<TaskDto, string>({
      query: byId,
      providesTags: (_result, _error, id) => [{ type: 'Tasks', id }],
    }),
    createTask: build.mutation<TaskSaved, TaskCreateInput>({
      query: (body) => ({ url: '/tasks', method: 'POST', body }),
      invalidatesTags: ['Tasks'],
    }),
    updateTask: build.mutation<TaskSaved, { id: string; body: TaskUpdateBody }>({
      query: ({ id, body }) => ({ url: byId(id), method: 'PUT', body }),
      invalidatesTags: ['Tasks'],
    }),
    deleteTask: build.mutation<unknown, string>({
      query: (id) => ({ url: byId(id), method: 'DELETE' }),
      invalidatesTags: ['Tasks'],
    }),
    /**
     * A kanban move: PUT {status} only. The card changes column at once (both lists' caches are
     * patched) and goes back if the server refuses; either way the lists are read again after.
     */
    moveTask: build.mutation<TaskDto, TaskMove>({
      query: ({ task, status }) => ({ url: byId(task._id), method: 'PUT', body: { status } }),
      async onQueryStarted({ task, status, from, to }, { dispatch, queryFulfilled }) {
        const moved = { ...task, status };
        const patches = [
          dispatch(
            tasksApi.util.updateQueryData('tasks', from, (draft: Pages) => {
              for (const page of draft.pages) page.items = page.items.filter((item) => item._id !== task._id);
            }),
          ),
          dispatch(
            tasksApi.util.updateQueryData('tasks', to, (draft: Pages) => {
              const first = draft.pages[0];
              if (first && !draft.pages.some((page) => page.items.some((item) => item._id === task._id)))
                first.items.unshift(moved);
            }),
          ),
        ];
        try {
          await queryFulfilled;
        } catch {
          for (const patch of patches) patch.undo();
        }
      },
      invalidatesTags: ['Tasks'],
    }),
    /** Chosen action items of a completed "Action items" run become tasks (answered in the order asked). */
    tasksFromRun: build.mutation<TaskList, { runId: string; items: number[] }>({
      query: ({ runId, items }) => ({
        url: `/tasks/from-run/${encodeURIComponent(runId)}`,
        method: 'POST',
        body: { items },
      }),
      invalidatesTags: ['Tasks'],
    }),
    /** The company's people for the assignee picker and names (every role; in a b2c company only oneself). */
    taskMembers: build.query<UserDropdownItem[], string | undefined>({
      query: (companyId) => ({ url: '/tasks/members', params: queryParams({ companyId }) }),
    }),
  }),
});

export const {
  useTasksInfiniteQuery,
  useTaskQuery,
  useCreateTaskMutation,
  useUpdateTaskMutation,
  useDeleteTaskMutation,
  useMoveTaskMutation,
  useTasksFromRunMutation,
  useTaskMembersQuery,
} = tasksApi;

/** Who may list the company's people for tasks (GET /tasks/members): every person with a role. */
export function mayListMembers(role: Role | null): boolean {
  return role !== null;
}

/** Edit and delete: the assignee, the creator and the company's administrators (the server enforces it too). */
export function mayEditTask(
  task: Pick<TaskDto, 'assigneeId' | 'createdBy'>,
  me: { id: string | null; role: Role | null },
): boolean {
  if (me.role === 'ADMIN' || me.role === 'HOST_ADMIN') return true;
  return me.id !== null && (task.assigneeId === me.id || task.createdBy === me.id);
}

/** A task belongs to its maker's company: the platform administrator, in none, reads and changes tasks but makes none. */
export function useMayCreateTasks(): boolean {
  return useAppSelector(
    (state) => typeof state.session.user?.companyId === 'string' && state.session.user.companyId !== '',
  );
}

export interface Option {
  _id: string;
  name: string;
}

/**
 * The signed-in person and the names a task screen shows: the company's members (null when the
 * role may not list them) and clients (null when it may not read them). Calls that the role would
 * be refused are not made.
 */
export function useTaskDirectory() {
  const user = useAppSelector((state) => state.session.user);
  const role = roleOf(user);
  const me = { id: typeof user?._id === 'string' ? user._id : null, role };
  const mayCreate = useMayCreateTasks();
  // A platform administrator's pickers are their own company's, like their tasks.
  const companyId = role === 'HOST_ADMIN' && typeof user?.companyId === 'string' ? user.companyId : undefined;
  const members = useTaskMembersQuery(companyId, { skip: !mayListMembers(role) });
  const clients = useClientOptionsQuery(companyId, { skip: !mayReadClients(role) });
  const memberOptions: Option[] | null = mayListMembers(role) ? (members.data ?? []) : null;
  const clientOptions: ClientOption[] | null = mayReadClients(role) ? (clients.data ?? []) : null;
  return { me, mayCreate, members: memberOptions, clients: clientOptions };
}

export type TaskDirectory = ReturnType<typeof useTaskDirectory>;

/** A name from a picker's options, or null when it is not among them. */
export function nameIn(options: readonly Option[] | null, id: string | null): string | null {
  if (!id || !options) return null;
  return options.find((option) => option._id === id)?.name ?? null;
}
