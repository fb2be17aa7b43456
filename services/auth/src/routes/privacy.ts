import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ADMINS,
  ALL_ROLES,
  PrivacyEraseBody,
  PrivacyExportBody,
  PrivacyJobAccepted,
  PrivacyJobDto,
  PrivacyJobParams,
  PrivacyQueueDto,
  QueueQuery,
} from '@earshot/contracts';
import { identityOf } from '@earshot/kit';
import type { PrivacyJobs } from '../services/privacy';
import { errors } from './schemas';

/**
 * A person's data. Every role reaches the export and the jobs; the service decides
 * whose data the caller may ask for (their own; an ADMIN their company's people; HOST_ADMIN
 * anyone's) and answers 404 for anyone else's. Erasing is for ADMIN and HOST_ADMIN only, never of
 * one's own account. A company's ADMIN sees the company's line of jobs (companies take turns).
 */
export async function privacyRoutes(app: FastifyInstance, jobs: PrivacyJobs): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['privacy'];

  r.post(
    '/privacy/export',
    {
      config: { access: ALL_ROLES, example: { body: { userId: '00000000-0000-4000-8000-000000000000' } } },
      schema: {
        tags,
        summary: 'Export everything held about a person as a ZIP of JSON and audio: a job, answered by every service',
        body: PrivacyExportBody,
        response: { 202: PrivacyJobAccepted, ...errors(400, 401, 404, 409) },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await jobs.requestExport(identityOf(request), request.body, request.ip)),
  );

  r.post(
    '/privacy/erase',
    {
      config: {
        access: ['HOST_ADMIN', 'ADMIN'],
        example: { body: { userId: '00000000-0000-4000-8000-000000000000', recordings: 'keep' } },
      },
      schema: {
        tags,
        summary:
          "Erase a person (a user's account or a client contact) in every service, their recordings deleted or kept under the company: a job with each service's report; 409 while a legal hold covers it",
        body: PrivacyEraseBody,
        response: { 202: PrivacyJobAccepted, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await jobs.requestErase(identityOf(request), request.body, request.ip)),
  );

  r.get(
    '/privacy/jobs/:jobId',
    {
      config: { access: ALL_ROLES, params: { jobId: 'privacyJob' } },
      schema: {
        tags,
        summary: 'A privacy job: its status, what each service reported, and the download once done',
        params: PrivacyJobParams,
        response: { 200: PrivacyJobDto, ...errors(400, 401, 404) },
      },
    },
    async (request) => jobs.job(identityOf(request), request.params.jobId),
  );

  // The company's cap and line are its ADMIN's to see (HOST_ADMIN names the company), as the transcription queue's.
  r.get(
    '/privacy/queue',
    {
      config: { access: ADMINS },
      schema: {
        tags,
        summary:
          "The company's privacy jobs (exports and erasures) in the platform's line: cap, running, waiting and each one's position",
        querystring: QueueQuery,
        response: { 200: PrivacyQueueDto, ...errors(400, 401, 403) },
      },
    },
    async (request) => jobs.queue(identityOf(request), request.query),
  );

  r.get(
    '/privacy/jobs/:jobId/download',
    {
      config: { access: ALL_ROLES, params: { jobId: 'privacyJob' } },
      schema: {
        tags,
        summary: "A done export's ZIP (an attachment)",
        params: PrivacyJobParams,
        response: { ...errors(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const { stream, filename } = await jobs.download(identityOf(request), request.params.jobId);
      // A stream is piped as it is, never serialised: the plain reply type says so.
      return (reply as FastifyReply)
        .header('content-type', 'application/zip')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'no-store')
        .send(stream);
    },
  );
}
