import type { FastifyInstance } from 'fastify';
import {
  ALL_ROLES,
  Dropdown,
  ERROR_RESPONSES,
  IdParams,
  MessageBody,
  TaskCreateBody,
  TaskDto,
  TaskList,
  TaskListQuery,
  TaskMembersQuery,
  TaskPage,
  TaskSaved,
  TasksFromRunBody,
  TasksFromRunParams,
  TaskUpdateBody,
} from '@earshot/contracts';
import { identityOf, type ZodTypeProvider } from '@earshot/kit';
import type { TaskService } from '../services/tasks';

const errors = ERROR_RESPONSES;

/** Every person of the company works with its tasks (not a company's API key). */
export async function taskRoutes(app: FastifyInstance, tasks: TaskService): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/tasks',
    {
      config: { access: ALL_ROLES },
      schema: { querystring: TaskListQuery, response: { 200: TaskPage, ...errors } },
    },
    async (request) => tasks.list(identityOf(request), request.query),
  );

  r.post(
    '/tasks',
    {
      config: { access: ALL_ROLES, example: { body: { title: 'Call the customer back' } } },
      schema: { body: TaskCreateBody, response: { 201: TaskSaved, ...errors } },
    },
    async (request, reply) => reply.code(201).send(await tasks.create(identityOf(request), request.body)),
  );

  r.get(
    '/tasks/members',
    {
      config: { access: ALL_ROLES },
      schema: { querystring: TaskMembersQuery, response: { 200: Dropdown, ...errors } },
    },
    async (request) => tasks.members(identityOf(request), request.query.companyId),
  );

  r.get(
    '/tasks/:id',
    {
      config: { access: ALL_ROLES, params: { id: 'task' } },
      schema: { params: IdParams, response: { 200: TaskDto, ...errors } },
    },
    async (request) => tasks.get(identityOf(request), request.params.id),
  );

  r.put(
    '/tasks/:id',
    {
      config: { access: ALL_ROLES, params: { id: 'task' }, example: { body: { status: 'in_progress' } } },
      schema: { params: IdParams, body: TaskUpdateBody, response: { 200: TaskSaved, ...errors } },
    },
    async (request) => tasks.update(identityOf(request), request.params.id, request.body),
  );

  r.delete(
    '/tasks/:id',
    {
      config: { access: ALL_ROLES, params: { id: 'task' } },
      schema: { params: IdParams, response: { 200: MessageBody, ...errors } },
    },
    async (request) => tasks.remove(identityOf(request), request.params.id),
  );

  // 201 when a task was made; 200 when every chosen item had its task already (nothing new).
  r.post(
    '/tasks/from-run/:runId',
    {
      config: { access: ALL_ROLES, params: { runId: 'actionItemsRun' }, example: { body: { items: [0] } } },
      schema: {
        params: TasksFromRunParams,
        body: TasksFromRunBody,
        response: { 200: TaskList, 201: TaskList, ...errors },
      },
    },
    async (request, reply) => {
      const { created, list } = await tasks.fromRun(identityOf(request), request.params.runId, request.body.items);
      return reply.code(created ? 201 : 200).send(list);
    },
  );
}
