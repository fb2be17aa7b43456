import type { FastifyInstance } from 'fastify';
import {
  ALL_ROLES,
  AnalysisFileParams,
  AnalysisRunBody,
  AnalysisRunList,
  AnalysisRunParams,
  AnalysisRunQuery,
  AnalysisRunStarted,
  CallMetricsDto,
  ERROR_RESPONSES,
  ErrorBody,
  MessageBody,
} from '@earshot/contracts';
import { identityOf, type ZodTypeProvider } from '@earshot/kit';
import type { AnalysisService } from '../services/analysis';

const errors = ERROR_RESPONSES;
const tags = ['analysis'];

/** Transcript analysis (/transcripts/{id}/analysis, visible to all): runs of prompts and patterns, and call analytics. */
export async function analysisRoutes(app: FastifyInstance, analysis: AnalysisService): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/analysis/transcripts',
    {
      config: { access: ALL_ROLES },
      schema: {
        tags,
        summary:
          'Run a prompt, or each prompt of a pattern, on a transcript (202; the runs work in the background). 409 NO_CHAT_MODEL without a chat model, ' +
          '402 CREDITS_EXHAUSTED or USER_CAP_REACHED without credits, 409 MODEL_NOT_PRICED when the model has no price',
        body: AnalysisRunBody,
        response: { 202: AnalysisRunStarted, 402: ErrorBody, 409: ErrorBody, ...errors },
      },
    },
    async (request, reply) => reply.code(202).send(await analysis.start(identityOf(request), request.body)),
  );

  r.get(
    '/analysis/transcripts',
    {
      config: { access: ALL_ROLES },
      schema: {
        tags,
        summary: 'The runs on a transcript, newest first',
        querystring: AnalysisRunQuery,
        response: { 200: AnalysisRunList, ...errors },
      },
    },
    async (request) => analysis.list(identityOf(request), request.query.fileId),
  );

  r.delete(
    '/analysis/transcripts/:runId',
    {
      config: { access: ALL_ROLES, params: { runId: 'analysisRun' } },
      schema: { tags, summary: 'Delete a run', params: AnalysisRunParams, response: { 200: MessageBody, ...errors } },
    },
    async (request) => analysis.remove(identityOf(request), request.params.runId),
  );

  r.get(
    '/analysis/transcripts/:fileId/metrics',
    {
      config: { access: ALL_ROLES, params: { fileId: 'file' } },
      schema: {
        tags,
        summary: 'Call analytics of a completed transcript (talk time, turns, overlaps, silence; seconds)',
        params: AnalysisFileParams,
        response: { 200: CallMetricsDto, 409: ErrorBody, ...errors },
      },
    },
    async (request) => analysis.metrics(identityOf(request), request.params.fileId),
  );
}
