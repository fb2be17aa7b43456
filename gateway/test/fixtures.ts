import type { InjectOptions } from 'fastify';
import type { Role } from '@earshot/contracts';
import { multipart, spokenWav, type CompanyKey, type Member, type World } from './world';

export type Caller = 'anonymous' | Role;

/**
 * How to make an object of each kind that routes name in `config.params`, in a given company,
 * for a given caller (objects private to a person, like conversations, must be the caller's own).
 * A route whose parameter names a kind missing here fails the matrix test: add the kind.
 */
export type FixtureFactory = (world: World, company: CompanyKey, caller: Caller) => Promise<string>;

/** Kinds whose objects a DELETE would destroy: made fresh for each delete call. */
export const FRESH_FOR_DELETE: Record<string, FixtureFactory> = {
  file: async (world, company, caller) => {
    const file = await uploadFile(world, uploaderToken(world, company, caller));
    // The transcription service learns of the upload from file.uploaded: let it arrive.
    await world.earshot.settle();
    return file._id;
  },
  aiProvider: async (world) => createAiProvider(world),
  aiModel: async (world) => createAiModel(world, await sharedAiProvider(world)),
  conversation: async (world, company, caller) => createConversation(world, ownerToken(world, company, caller)),
  client: async (world, company) => createClient(world, company),
  prompt: async (world, company) => createPrompt(world, company),
  pattern: async (world, company) => createPattern(world, company),
};

/** AI providers and models are platform-wide (HOST_ADMIN), not per company. */
async function hostPost(world: World, url: string, payload: Record<string, unknown>): Promise<string> {
  const res = await world.request(world.host.token, { method: 'POST', url, payload });
  if (res.statusCode !== 201) throw new Error(`${url} fixture: ${res.statusCode} ${res.body}`);
  return (res.json() as { _id: string })._id;
}

// Nothing listens on port 9: a test connection answers 200 {ok: false} (AI_ALLOW_PRIVATE_URLS=true in the world).
const createAiProvider = (world: World) =>
  hostPost(world, '/api/ai/config/provider', { name: 'Matrix provider', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-matrix-key' });
const createAiModel = (world: World, providerId: string) =>
  hostPost(world, '/api/ai/config/model', { providerId, name: `matrix-${Math.random().toString(36).slice(2)}`, purpose: 'chat' });

/** A company prompt of that company: everyone there may run it, nobody elsewhere (but the platform). */
const promptBody = (world: World, company: CompanyKey) => ({
  name: `Matrix prompt ${company}`,
  prompt: 'Summarise {{transcript}}',
  type: 'summary',
  expectedFormat: [{ name: 'summary', type: 'string', description: 'The summary' }],
  scope: 'company',
  companies: [world.companies[company].id],
});
const createPrompt = (world: World, company: CompanyKey) => hostPost(world, '/api/prompts', promptBody(world, company));

/** A pattern of the company, made by its ADMIN from the company's own prompt. */
async function createPattern(world: World, company: CompanyKey): Promise<string> {
  const res = await world.request(world.users[company].ADMIN.token, {
    method: 'POST',
    url: '/api/analysis/patterns',
    payload: { name: `Matrix pattern ${company}`, promptIds: [await sharedPrompt(world, company)] },
  });
  if (res.statusCode !== 201) throw new Error(`pattern fixture: ${res.statusCode} ${res.body}`);
  return (res.json() as { _id: string })._id;
}

/** One object per company, made the first time a route asks for it. */
function oncePerCompany(make: (world: World, company: CompanyKey) => Promise<string>) {
  const made = new Map<CompanyKey, Promise<string>>();
  return (world: World, company: CompanyKey): Promise<string> => {
    if (!made.has(company)) made.set(company, make(world, company));
    return made.get(company)!;
  };
}
const sharedPrompt = oncePerCompany(createPrompt);
const sharedPattern = oncePerCompany(createPattern);

let aiProvider: Promise<string> | undefined;
let aiModel: Promise<string> | undefined;
const sharedAiProvider = (world: World) => (aiProvider ??= createAiProvider(world));
const sharedAiModel = (world: World) => (aiModel ??= sharedAiProvider(world).then((id) => createAiModel(world, id)));

/**
 * Whose conversation a caller addresses: in company A (the caller's side) their own, so that the
 * route can answer; in company B someone else's (its ADMIN's), which must be a 404 for everyone.
 */
function ownerToken(world: World, company: CompanyKey, caller: Caller): string {
  if (company === 'B' || caller === 'anonymous') return world.users[company].ADMIN.token;
  return caller === 'HOST_ADMIN' ? world.host.token : world.users[company][caller].token;
}

/**
 * Who uploads a recording that a caller then deletes: in company A the caller themselves when they
 * belong to it (an uploader may delete their own recording whatever the in-company rules are), so
 * the route is tested on access alone; otherwise the company's ADMIN.
 */
function uploaderToken(world: World, company: CompanyKey, caller: Caller): string {
  if (company === 'B' || caller === 'anonymous' || caller === 'HOST_ADMIN') return world.users[company].ADMIN.token;
  return world.users[company][caller].token;
}

/** The member a caller is: a route that ends a session is called with a session of its own. */
function memberOf(world: World, caller: Exclude<Caller, 'anonymous'>): Member {
  return caller === 'HOST_ADMIN' ? world.host : world.users.A[caller];
}

/** Clients are the company's, made by its ADMIN (a platform administrator only reads them). */
async function createClient(world: World, company: CompanyKey): Promise<string> {
  const res = await world.request(world.users[company].ADMIN.token, { method: 'POST', url: '/api/clients', payload: { name: 'Matrix client' } });
  if (res.statusCode !== 201) throw new Error(`client fixture: ${res.statusCode} ${res.body}`);
  return (res.json() as { _id: string })._id;
}

const clients = new Map<CompanyKey, Promise<string>>();
const sharedClient = (world: World, company: CompanyKey) => {
  let id = clients.get(company);
  if (!id) clients.set(company, (id = createClient(world, company)));
  return id;
};

async function createConversation(world: World, token: string): Promise<string> {
  const res = await world.request(token, { method: 'POST', url: '/api/chat/conversations', payload: { title: 'Matrix' } });
  if (res.statusCode !== 201) throw new Error(`conversation fixture: ${res.statusCode} ${res.body}`);
  return (res.json() as { _id: string })._id;
}

const conversations = new Map<string, Promise<string>>();
const sharedConversation = (world: World, token: string) => {
  let id = conversations.get(token);
  if (!id) conversations.set(token, (id = createConversation(world, token)));
  return id;
};

const replies = new Map<string, Promise<string>>();
/** A reply of the built-in assistant in the owner's conversation: something to give feedback on. */
function sharedReply(world: World, token: string): Promise<string> {
  let id = replies.get(token);
  if (!id) {
    id = (async () => {
      const res = await world.request(token, {
        method: 'POST',
        url: `/api/chat/conversations/${await sharedConversation(world, token)}/chat/stream`,
        payload: { message: 'hello', modelId: 'built-in' },
      });
      const done = /event: done\ndata: (.*)/.exec(res.body)?.[1];
      if (res.statusCode !== 200 || !done) throw new Error(`reply fixture: ${res.statusCode} ${res.body.slice(0, 300)}`);
      return (JSON.parse(done) as { messageId: string }).messageId;
    })();
    replies.set(token, id);
  }
  return id;
}

async function uploadFile(world: World, token: string) {
  const res = await world.request(token, {
    method: 'POST',
    url: '/api/files/upload',
    ...multipart({}, { name: 'call.wav', type: 'audio/wav', data: spokenWav() }),
  });
  if (res.statusCode !== 201) throw new Error(`upload fixture: ${res.statusCode} ${res.body}`);
  return res.json() as { _id: string; path: string };
}

interface TranscriptFixture {
  fileId: string;
  path: string;
  transcriptId: string;
  segmentId: string;
  wordId: string;
}

const transcripts = new Map<CompanyKey, Promise<TranscriptFixture>>();

/** A completed transcript (the offline engine on a short espeak clip): waits for the worker. */
export function completedTranscript(world: World, company: CompanyKey): Promise<TranscriptFixture> {
  let pending = transcripts.get(company);
  if (!pending) {
    pending = (async () => {
      const token = world.users[company].ADMIN.token;
      const file = await uploadFile(world, token);
      for (let i = 0; i < 600; i++) {
        await world.earshot.settle();
        const res = await world.request(token, { method: 'GET', url: `/api/transcripts/file/${file._id}` });
        const body = res.json() as { _id: string; status?: string; metadata?: { speakerSegments?: { _id: string; words: { _id: string }[] }[] } };
        const segment = body.metadata?.speakerSegments?.find((s) => s.words.length > 0);
        if (res.statusCode === 200 && segment) {
          return { fileId: file._id, path: file.path, transcriptId: body._id, segmentId: segment._id, wordId: segment.words[0]!._id };
        }
        if (body.status === 'failed') throw new Error(`transcript fixture failed: ${res.body}`);
        await new Promise((r) => setTimeout(r, 200));
      }
      throw new Error('transcript fixture did not complete');
    })();
    transcripts.set(company, pending);
  }
  return pending;
}

export const FIXTURES: Record<string, FixtureFactory> = {
  company: async (world, company) => world.companies[company].id,
  companyDomain: async (world, company) => world.companies[company].domain,
  // Sign-in providers are platform-wide, not per company.
  provider: async () => 'google',
  user: async (world, company) => {
    const email = `fixture-${Math.random().toString(36).slice(2)}@${world.companies[company].domain}.test`;
    const res = await world.request(world.host.token, {
      method: 'POST',
      url: '/api/users/register',
      payload: { firstName: 'Fixture', lastName: company, email, password: 'password-123', role: 'USER', companyId: world.companies[company].id },
    });
    if (res.statusCode !== 201) throw new Error(`user fixture: ${res.statusCode} ${res.body}`);
    return (res.json() as { _id: string })._id;
  },
  // A file whose transcript completed, so transcript routes (peaks, words) have something to show.
  file: async (world, company) => (await completedTranscript(world, company)).fileId,
  uploadPath: async (world, company) => (await completedTranscript(world, company)).path,
  transcript: async (world, company) => (await completedTranscript(world, company)).transcriptId,
  word: async (world, company) => (await completedTranscript(world, company)).wordId,
  aiProvider: async (world) => sharedAiProvider(world),
  aiModel: async (world) => sharedAiModel(world),
  conversation: async (world, company, caller) => sharedConversation(world, ownerToken(world, company, caller)),
  client: async (world, company) => sharedClient(world, company),
  prompt: async (world, company) => sharedPrompt(world, company),
  pattern: async (world, company) => sharedPattern(world, company),
};

/** Requests that a static example cannot describe (multipart, bodies naming fixtures). */
export const REQUEST_OVERRIDES: Record<string, (world: World, company: CompanyKey, caller: Caller) => Promise<Partial<InjectOptions>>> = {
  'POST /api/files/upload': async () => multipart({}, { name: 'call.wav', type: 'audio/wav', data: spokenWav() }),
  // Signing out ends the session presented: never the one the rest of the matrix goes on using.
  'POST /api/auth/logout': async (world, _company, caller) =>
    caller === 'anonymous' ? {} : { headers: { authorization: `Bearer ${await world.signInAgain(memberOf(world, caller))}` } },
  'PUT /api/transcripts/:transcriptId/metadata/words/:wordId': async (world, company) => ({
    payload: { text: 'corrected', speakerSegmentId: (await completedTranscript(world, company)).segmentId },
  }),
  'POST /api/chat/feedback': async (world, company, caller) => ({
    payload: { messageId: await sharedReply(world, ownerToken(world, company, caller)), rating: 'up' },
  }),
  // An edit keeps the prompt its company's alone (the example would make it global).
  'PUT /api/prompts/:id': async (world, company) => ({ payload: promptBody(world, company) }),
  // The platform administrator makes it for the company (an ADMIN's is their own company's anyway).
  'POST /api/analysis/patterns': async (world, company) => ({
    payload: { name: 'Matrix pattern', promptIds: [await sharedPrompt(world, company)], companyId: world.companies[company].id },
  }),
  'PUT /api/analysis/patterns/:id': async (world, company) => ({
    payload: { name: 'Matrix pattern', promptIds: [await sharedPrompt(world, company)] },
  }),
  'POST /api/ai/config/model': async (world) => ({
    payload: { providerId: await sharedAiProvider(world), name: `matrix-${Math.random().toString(36).slice(2)}`, purpose: 'chat' },
  }),
};
