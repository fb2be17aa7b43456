import type { FastifyInstance } from 'fastify';
import {
  ALL_ROLES,
  ERROR_RESPONSES,
  ErrorBody,
  HOST_ONLY,
  SpeechModelDto,
  SpeechModelList,
  SpeechModelParams,
  SpeechReadinessDto,
} from '@earshot/contracts';
import { actorOf, identityOf, type ZodTypeProvider } from '@earshot/kit';
import type { SpeechModelManager } from '../models/manager';

const tags = ['speech-models'];
const model = { name: 'speechModel' };
const errors = { ...ERROR_RESPONSES, 409: ErrorBody };

/** The speech models of the machine: the platform administrator's (AI Configuration). */
export async function speechModelRoutes(app: FastifyInstance, models: SpeechModelManager): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/ai/speech-models',
    {
      config: { access: HOST_ONLY },
      schema: {
        tags,
        summary: "The catalogue of speech models with each one's status and download progress",
        response: { 200: SpeechModelList, ...errors },
      },
    },
    async () => models.list(),
  );

  // Every role: the upload form says before an upload when speakers will not be separated.
  r.get(
    '/ai/speech-models/readiness',
    {
      config: { access: ALL_ROLES },
      schema: {
        tags,
        summary: 'Whether a default Whisper model and both speaker-separation models are installed',
        response: { 200: SpeechReadinessDto, ...errors },
      },
    },
    async () => models.readiness(),
  );

  r.post(
    '/ai/speech-models/:name/download',
    {
      config: { access: HOST_ONLY, params: model },
      schema: {
        tags,
        summary: 'Download (or resume) a model in the background; 507 when the disk lacks the space',
        params: SpeechModelParams,
        response: { 202: SpeechModelDto, 507: ErrorBody, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await models.download(request.params.name, actorOf(identityOf(request)))),
  );

  r.post(
    '/ai/speech-models/:name/cancel',
    {
      config: { access: HOST_ONLY, params: model },
      schema: {
        tags,
        summary: 'Stop a download, keeping what it fetched for a later resume',
        params: SpeechModelParams,
        response: { 202: SpeechModelDto, ...errors },
      },
    },
    async (request, reply) => reply.code(202).send(await models.cancel(request.params.name)),
  );

  r.delete(
    '/ai/speech-models/:name',
    {
      config: { access: HOST_ONLY, params: model },
      schema: {
        tags,
        summary: "Delete the model's file (and any partial download); it stops being the default",
        params: SpeechModelParams,
        response: { 200: SpeechModelDto, ...errors },
      },
    },
    async (request) => models.remove(request.params.name, actorOf(identityOf(request))),
  );

  r.put(
    '/ai/speech-models/:name/default',
    {
      config: { access: HOST_ONLY, params: model },
      schema: {
        tags,
        summary: "Make a downloaded Whisper model the offline engine's (409 when not ready)",
        params: SpeechModelParams,
        response: { 200: SpeechModelDto, ...errors },
      },
    },
    async (request) => models.makeDefault(request.params.name, actorOf(identityOf(request))),
  );
}
