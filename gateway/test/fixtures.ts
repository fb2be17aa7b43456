import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { InjectOptions } from 'fastify';
import type { CallerRole } from '@earshot/contracts';
import { multipart } from '@earshot/kit/testing';
import { spokenWav, type CompanyKey, type Member, type World } from './world';

export type Caller = 'anonymous' | CallerRole;

/**
 * How to make an object of each kind that routes name in `config.params`, in a given company,
 * for a given caller (objects private to a person, like conversations, must be the caller's own).
 * A route whose parameter names a kind missing here fails the matrix test: add the kind.
 */
export type FixtureFactory = (world: World, company: CompanyKey, caller: Caller) => Promise<string>;

/** Kinds whose objects a DELETE would destroy: made fresh for each delete call. */
export const FRESH_FOR_DELETE: Record<string, FixtureFactory> = {
  // Deleting a company removes its data in every service: never the world's two companies.
  company: async (world) =>
    hostPost(world, '/api/companies', {
      name: 'Matrix gone',
      code: `GONE-${Math.random().toString(36).slice(2, 8)}`,
      domain: `gone-${Math.random().toString(36).slice(2, 8)}`,
    }),
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
  analysisRun: async (world, company) => createAnalysisRun(world, company),
  customGpt: async (world, company, caller) => {
    const id = await createCustomGpt(world, company, caller);
    freshGpts.set(gptKey(company, caller), id);
    return id;
  },
  // A file of the GPT the same call just made (the route names the GPT first).
  knowledgeFile: async (world, company, caller) =>
    uploadKnowledge(world, company, caller, freshGpts.get(gptKey(company, caller))!),
  // A session of its own that the caller signs out (in company B, someone else's: a 404).
  webhook: async (world, company) => createWebhook(world, company),
  session: async (world, company, caller) => {
    const own = company === 'A' && caller !== 'anonymous' && caller !== 'SERVICE';
    return sessionIdOf(await world.signInAgain(own ? memberOf(world, caller) : world.users[company].ADMIN));
  },
};

/** The session id (sid) an access token carries. */
function sessionIdOf(token: string): string {
  return (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { sid: string }).sid;
}

/** AI providers and models are platform-wide (HOST_ADMIN), not per company. */
async function hostPost(world: World, url: string, payload: Record<string, unknown>): Promise<string> {
  const res = await world.request(world.host.token, { method: 'POST', url, payload });
  if (res.statusCode !== 201) throw new Error(`${url} fixture: ${res.statusCode} ${res.body}`);
  return (res.json() as { _id: string })._id;
}

// Nothing listens on port 9: a test connection answers 200 {ok: false} (AI_ALLOW_PRIVATE_URLS=true in the world).
const createAiProvider = (world: World) =>
  hostPost(world, '/api/ai/config/provider', {
    name: 'Matrix provider',
    baseUrl: 'http://127.0.0.1:9/v1',
    apiKey: 'sk-matrix-key',
  });
/** A chat model priced at 0 credits: the credit gate refuses work on a model without a price. */
async function createAiModel(world: World, providerId: string): Promise<string> {
  const modelId = await hostPost(world, '/api/ai/config/model', {
    providerId,
    name: `matrix-${Math.random().toString(36).slice(2)}`,
    purpose: 'chat',
  });
  for (const unit of ['input_1k', 'output_1k']) await hostPost(world, '/api/pricing', { modelId, unit, credits: 0 });
  return modelId;
}

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

/**
 * A run of the company's prompt on its transcript, asked by its ADMIN. The matrix's chat model
 * points at a closed port: the run fails in the background, which is all a route on it needs.
 */
async function createAnalysisRun(world: World, company: CompanyKey): Promise<string> {
  const { fileId } = await completedTranscript(world, company);
  // The run takes the default chat model: make it the shared one, which has a price (the walk's own
  // POST /ai/config/model made others that have none, and an unpriced model is refused).
  const modelId = await sharedAiModel(world);
  const made = await world.request(world.host.token, {
    method: 'PATCH',
    url: `/api/ai/config/model/${modelId}`,
    payload: { isDefault: true },
  });
  if (made.statusCode !== 200) throw new Error(`default model fixture: ${made.statusCode} ${made.body}`);
  // The prompt service learns of the transcript and the model from events: let them arrive.
  await world.earshot.settle();
  const res = await world.request(world.users[company].ADMIN.token, {
    method: 'POST',
    url: '/api/analysis/transcripts',
    payload: { fileId, promptId: await sharedPrompt(world, company) },
  });
  if (res.statusCode !== 202) throw new Error(`analysis run fixture: ${res.statusCode} ${res.body}`);
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
/** A company beside A and B, whose API key the key routes may rotate and revoke. */
const spareCompany = oncePerCompany((world, company) =>
  hostPost(world, '/api/companies', {
    name: `Spare ${company}`,
    code: `SPARE-${company}`,
    domain: `matrix-spare-${company.toLowerCase()}`,
    type: 'business',
    status: 'active',
    maxUsers: 5,
    maxStorage: 1024 ** 2,
    language: 'en',
  }),
);
const sharedPattern = oncePerCompany(createPattern);

/** The platform's English password-reset template: platform-wide, like the AI providers. */
async function platformTemplate(world: World): Promise<string> {
  const res = await world.request(world.host.token, {
    method: 'GET',
    url: '/api/email?type=password_reset&language=en&companyId=platform',
  });
  const [template] = res.json() as { _id: string }[];
  if (res.statusCode !== 200 || !template) throw new Error(`email template fixture: ${res.statusCode} ${res.body}`);
  return template._id;
}

/** A test mail to the platform administrator, queued from that template. */
async function queuedMail(world: World): Promise<string> {
  const res = await world.request(world.host.token, {
    method: 'POST',
    url: `/api/email/${await sharedTemplate(world)}/test`,
  });
  if (res.statusCode !== 202) throw new Error(`mail fixture: ${res.statusCode} ${res.body}`);
  return (res.json() as { _id: string })._id;
}

let template: Promise<string> | undefined;
let mail: Promise<string> | undefined;
const sharedTemplate = (world: World) => (template ??= platformTemplate(world));
const sharedMail = (world: World) => (mail ??= queuedMail(world));

let aiProvider: Promise<string> | undefined;
let aiModel: Promise<string> | undefined;
const sharedAiProvider = (world: World) => (aiProvider ??= createAiProvider(world));
const sharedAiModel = (world: World) => (aiModel ??= sharedAiProvider(world).then((id) => createAiModel(world, id)));

/**
 * Whose conversation a caller addresses: in company A (the caller's side) their own, so that the
 * route can answer; in company B someone else's (its ADMIN's), which must be a 404 for everyone.
 */
function ownerToken(world: World, company: CompanyKey, caller: Caller): string {
  if (company === 'B' || caller === 'anonymous' || caller === 'SERVICE') return world.users[company].ADMIN.token;
  return caller === 'HOST_ADMIN' ? world.host.token : world.users[company][caller].token;
}

/**
 * Who uploads a recording that a caller then deletes: in company A the caller themselves when they
 * belong to it (an uploader may delete their own recording whatever the in-company rules are), so
 * the route is tested on access alone; otherwise the company's ADMIN.
 */
function uploaderToken(world: World, company: CompanyKey, caller: Caller): string {
  if (company === 'B' || caller === 'anonymous' || caller === 'HOST_ADMIN' || caller === 'SERVICE')
    return world.users[company].ADMIN.token;
  return world.users[company][caller].token;
}

/** The member a caller is: a route that ends a session is called with a session of its own. */
function memberOf(world: World, caller: Exclude<Caller, 'anonymous' | 'SERVICE'>): Member {
  return caller === 'HOST_ADMIN' ? world.host : world.users.A[caller];
}

/** Clients are the company's, made by its ADMIN (a platform administrator only reads them). */
async function createClient(world: World, company: CompanyKey): Promise<string> {
  const res = await world.request(world.users[company].ADMIN.token, {
    method: 'POST',
    url: '/api/clients',
    payload: { name: 'Matrix client' },
  });
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
  const res = await world.request(token, {
    method: 'POST',
    url: '/api/chat/conversations',
    payload: { title: 'Matrix' },
  });
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
      if (res.statusCode !== 200 || !done)
        throw new Error(`reply fixture: ${res.statusCode} ${res.body.slice(0, 300)}`);
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
/**
 * The world's recording with an unredacted original kept, written where and as the
 * redaction step records it (in plain here: the route reads plain and encrypted objects alike).
 */
async function keptOriginal(world: World, company: CompanyKey): Promise<string> {
  const { fileId } = await completedTranscript(world, company);
  const companyId = world.companies[company].id;
  const dir = join(world.dataDir, 'objects', companyId, 'originals', fileId);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'words.json'), '[]');
  writeFileSync(join(dir, 'audio'), spokenWav());
  await world.earshot.database.query(
    "insert into transcription.kept_originals (file_id, company_id, words_key, audio_key, audio_type) values ($1, $2, $3, $4, 'audio/wav') on conflict (file_id) do nothing",
    [fileId, companyId, `${companyId}/originals/${fileId}/words.json`, `${companyId}/originals/${fileId}/audio`],
  );
  return fileId;
}

export function completedTranscript(world: World, company: CompanyKey): Promise<TranscriptFixture> {
  let pending = transcripts.get(company);
  if (!pending) {
    pending = (async () => {
      const token = world.users[company].ADMIN.token;
      const file = await uploadFile(world, token);
      for (let i = 0; i < 600; i++) {
        await world.earshot.settle();
        const res = await world.request(token, { method: 'GET', url: `/api/transcripts/file/${file._id}` });
        const body = res.json() as {
          _id: string;
          status?: string;
          metadata?: { speakerSegments?: { _id: string; words: { _id: string }[] }[] };
        };
        const segment = body.metadata?.speakerSegments?.find((s) => s.words.length > 0);
        if (res.statusCode === 200 && segment) {
          // Other services (chat's copy of the text) learn of the completion from its events.
          await world.earshot.settle();
          return {
            fileId: file._id,
            path: file.path,
            transcriptId: body._id,
            segmentId: segment._id,
            wordId: segment.words[0]!._id,
          };
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

async function registeredUser(
  world: World,
  company: CompanyKey,
  how: { password: string } | { invite: true },
): Promise<string> {
  const email = `fixture-${Math.random().toString(36).slice(2)}@${world.companies[company].domain}.test`;
  const res = await world.request(world.host.token, {
    method: 'POST',
    url: '/api/users/register',
    payload: {
      firstName: 'Fixture',
      lastName: company,
      email,
      role: 'USER',
      companyId: world.companies[company].id,
      ...how,
    },
  });
  if (res.statusCode !== 201) throw new Error(`user fixture: ${res.statusCode} ${res.body}`);
  return (res.json() as { _id: string })._id;
}

export const FIXTURES: Record<string, FixtureFactory> = {
  company: async (world, company) => world.companies[company].id,
  companyDomain: async (world, company) => world.companies[company].domain,
  // A company's own settings (single sign-on): the world's company even for DELETE, which only turns it off.
  ssoCompany: async (world, company) => world.companies[company].id,
  // Sign-in providers are platform-wide, not per company.
  provider: async () => 'google',
  // Speech models are the machine's, not a company's; downloads go to a closed local port (world.ts).
  speechModel: async () => 'tiny.en',
  user: async (world, company) => registeredUser(world, company, { password: 'password-123' }),
  // Someone invited who has not chosen a password yet (resend and revoke act on them).
  invitedUser: async (world, company) => registeredUser(world, company, { invite: true }),
  // A file whose transcript completed, so transcript routes (peaks, words) have something to show.
  file: async (world, company) => (await completedTranscript(world, company)).fileId,
  tag: freshTag,
  uploadPath: async (world, company) => (await completedTranscript(world, company)).path,
  transcript: async (world, company) => (await completedTranscript(world, company)).transcriptId,
  keptOriginal: async (world, company) => keptOriginal(world, company),
  word: async (world, company) => (await completedTranscript(world, company)).wordId,
  segment: async (world, company) => (await completedTranscript(world, company)).segmentId,
  // Every transcript has its first speaker.
  speaker: async () => 'speaker_0',
  transcriptEdit: async (world, company) => transcriptEdit(world, company),
  aiProvider: async (world) => sharedAiProvider(world),
  aiModel: async (world) => sharedAiModel(world),
  conversation: async (world, company, caller) => sharedConversation(world, ownerToken(world, company, caller)),
  client: async (world, company) => sharedClient(world, company),
  prompt: async (world, company) => sharedPrompt(world, company),
  pattern: async (world, company) => sharedPattern(world, company),
  // Names the server would make up: unknown ones are a 404, which a public route may answer.
  brandingAsset: async () => `${crypto.randomUUID()}.png`,
  // A coming-soon area: the matrix switches it on (its example), so nothing else changes.
  featureKey: async () => 'forest_ai',
  emailTemplate: async (world) => sharedTemplate(world),
  mailMessage: async (world) => sharedMail(world),
  analysisRun: async (world, company) => createAnalysisRun(world, company),
  privacyJob: async (world, company, caller) => privacyJob(world, company, caller),
  // Someone of the company with a picture: its ADMIN uploads one (again each time, as the walk
  // may have removed it).
  avatarUser: async (world, company) => uploadAvatar(world, world.users[company].ADMIN),
  // A notification of the caller's own (in company B: its ADMIN's, someone else's). Alerts make
  // them from charges; the matrix needs only one to exist, so it is written as the alert would.
  notification: async (world, company, caller) => {
    const own = company === 'A' && caller !== 'anonymous' && caller !== 'SERVICE';
    const owner = own ? memberOf(world, caller) : world.users[company].ADMIN;
    const [row] = await world.earshot.database.query<{ id: string }>(
      "insert into messaging.notifications (user_id, company_id, kind, title, body) values ($1, $2, 'credits_threshold', 'Matrix', 'Matrix') returning id",
      [owner.id, owner === world.host ? null : world.companies[company].id],
    );
    return row!.id;
  },
  // A message of the caller's own inbox (in company B: its ADMIN's, someone else's), a
  // notification as an alert would write it.
  inboxMessage: async (world, company, caller) => {
    const own = company === 'A' && caller !== 'anonymous' && caller !== 'SERVICE';
    const owner = own ? memberOf(world, caller) : world.users[company].ADMIN;
    const [row] = await world.earshot.database.query<{ id: string }>(
      "insert into messaging.notifications (user_id, company_id, kind, title, body) values ($1, $2, 'task_due', 'Matrix', 'Matrix') returning id",
      [owner.id, owner === world.host ? null : world.companies[company].id],
    );
    return `n-${row!.id}`;
  },
  customGpt: async (world, company, caller) => sharedGpt(world, company, caller),
  knowledgeFile: async (world, company, caller) =>
    uploadKnowledge(world, company, caller, await sharedGpt(world, company, caller)),
  // A new task for each call (so a DELETE never takes another route's).
  task: async (world, company, caller) => createTask(world, company, caller),
  // An Action items run's proposals, as the tasks service keeps them from
  // analysis.action_items_proposed (a real run needs a provider that answers; analysis tests run one).
  actionItemsRun: async (world, company) => {
    const runId = crypto.randomUUID();
    await world.earshot.database.query(
      'insert into tasks.proposals (run_id, company_id, file_id, items) values ($1, $2, $3, \'[{"title": "Matrix follow-up"}]\'::jsonb)',
      [runId, world.companies[company].id, crypto.randomUUID()],
    );
    return runId;
  },
  webhook: async (world, company) => sharedWebhook(world, company),
  // A delivery to the company's endpoint, written as an event handler records one.
  webhookDelivery: async (world, company) => {
    const endpointId = await sharedWebhook(world, company);
    const [row] = await world.earshot.database.query<{ id: string }>(
      `insert into webhooks.deliveries (endpoint_id, company_id, event_id, event_type, body, status, attempts)
       values ($1, $2, $3, 'file.uploaded', '{}', 'failed', 8) returning id`,
      [endpointId, world.companies[company].id, crypto.randomUUID()],
    );
    return row!.id;
  },
  // A well-formed feed address nobody holds: a 404, which a public route may answer.
  calendarFeed: async () => `${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')}.ics`,
};

/** A webhook endpoint of the company, made by its ADMIN; nothing listens on port 9. */
async function createWebhook(world: World, company: CompanyKey): Promise<string> {
  const res = await world.request(world.users[company].ADMIN.token, {
    method: 'POST',
    url: '/api/webhooks',
    payload: { url: 'http://127.0.0.1:9/matrix', events: ['file.uploaded'] },
  });
  if (res.statusCode !== 201) throw new Error(`webhook fixture: ${res.statusCode} ${res.body}`);
  return (res.json() as { id: string }).id;
}
const sharedWebhook = oncePerCompany(createWebhook);

/**
 * A task a caller may change: in company A one they made themselves (a USER or CALLER
 * edits only their own or those given to them), in company B its ADMIN's (a 404 for A's people).
 */
async function createTask(world: World, company: CompanyKey, caller: Caller): Promise<string> {
  const own = company === 'A' && caller !== 'anonymous' && caller !== 'SERVICE' && caller !== 'HOST_ADMIN';
  const token = own ? world.users.A[caller].token : world.users[company].ADMIN.token;
  const res = await world.request(token, { method: 'POST', url: '/api/tasks', payload: { title: 'Matrix task' } });
  if (res.statusCode !== 201) throw new Error(`task fixture: ${res.statusCode} ${res.body}`);
  return (res.json() as { _id: string })._id;
}

/**
 * A custom GPT a caller addresses. The platform administrator owns platform GPTs (one
 * offered to that company); everyone else addresses their company's own, shown to the whole
 * company, made by its ADMIN (in company B: B's, a 404 for A's people).
 */
const gptKey = (company: CompanyKey, caller: Caller) => `${company}:${caller === 'HOST_ADMIN' ? 'host' : 'company'}`;
const gptOwner = (world: World, company: CompanyKey, caller: Caller) =>
  caller === 'HOST_ADMIN' ? world.host.token : world.users[company].ADMIN.token;
const freshGpts = new Map<string, string>();
const sharedGpts = new Map<string, Promise<string>>();

async function createCustomGpt(world: World, company: CompanyKey, caller: Caller): Promise<string> {
  const payload = {
    name: 'Matrix GPT',
    instructions: 'Answer from the files.',
    visibility: 'company',
    ...(caller === 'HOST_ADMIN' ? { companyIds: [world.companies[company].id] } : {}),
  };
  const res = await world.request(gptOwner(world, company, caller), {
    method: 'POST',
    url: '/api/custom-gpt',
    payload,
  });
  if (res.statusCode !== 201) throw new Error(`custom GPT fixture: ${res.statusCode} ${res.body}`);
  return (res.json() as { _id: string })._id;
}

function sharedGpt(world: World, company: CompanyKey, caller: Caller): Promise<string> {
  const key = gptKey(company, caller);
  let id = sharedGpts.get(key);
  if (!id) sharedGpts.set(key, (id = createCustomGpt(world, company, caller)));
  return id;
}

async function uploadKnowledge(world: World, company: CompanyKey, caller: Caller, gptId: string): Promise<string> {
  const res = await world.request(gptOwner(world, company, caller), {
    method: 'POST',
    url: `/api/custom-gpt/${gptId}/files?type=knowledge`,
    ...multipart({}, { name: 'notes.md', type: 'text/markdown', data: Buffer.from('# Notes\n\nMatrix knowledge.') }),
  });
  if (res.statusCode !== 201) throw new Error(`knowledge file fixture: ${res.statusCode} ${res.body}`);
  return (res.json() as { _id: string })._id;
}

async function uploadAvatar(world: World, member: Member): Promise<string> {
  const res = await world.request(member.token, {
    method: 'POST',
    url: '/api/users/profile/avatar',
    ...multipart({}, { name: 'me.png', type: 'image/png', data: PNG }),
  });
  if (res.statusCode !== 200) throw new Error(`avatar fixture: ${res.statusCode} ${res.body}`);
  return member.id;
}

/** A 1×1 PNG: enough for a branding upload to be recognised by content. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** A tag only this company's recording carries, new each time (a rename or delete takes it away). */
async function freshTag(world: World, company: CompanyKey): Promise<string> {
  const tag = `matrix-${company.toLowerCase()}-${Math.random().toString(36).slice(2, 8)}`;
  const { fileId } = await completedTranscript(world, company);
  const res = await world.request(world.users[company].ADMIN.token, {
    method: 'PUT',
    url: `/api/files/${fileId}/tags`,
    payload: { tags: [tag] },
  });
  if (res.statusCode !== 200) throw new Error(`tag fixture: ${res.statusCode} ${res.body}`);
  return tag;
}

/** A tag route on a fresh tag of the company, which a platform administrator names (other roles act on their own company whatever it says). */
const tagRequest = async (world: World, company: CompanyKey) => ({
  url: `/api/tags/${await freshTag(world, company)}?companyId=${world.companies[company].id}`,
});

/** An edit of the company's transcript, new each time (an undo or redo changes what it may do next). */
async function transcriptEdit(world: World, company: CompanyKey): Promise<string> {
  const { fileId } = await completedTranscript(world, company);
  const token = world.users[company].ADMIN.token;
  const renamed = await world.request(token, {
    method: 'PUT',
    url: `/api/transcripts/${fileId}/speakers/speaker_0`,
    payload: { name: `Matrix ${Math.random().toString(36).slice(2, 8)}` },
  });
  if (renamed.statusCode !== 200) throw new Error(`edit fixture: ${renamed.statusCode} ${renamed.body}`);
  const history = await world.request(token, { method: 'GET', url: `/api/transcripts/${fileId}/edits` });
  return (history.json() as { items: { _id: string }[] }).items[0]!._id;
}

/** Requests that a static example cannot describe (multipart, bodies naming fixtures). */
/**
 * Whose data a caller asks for. In company A the caller themself (anyone may export their
 * own account; the anonymous caller and the API key, refused before, A's ADMIN); in B its ADMIN.
 */
function privacySubject(world: World, company: CompanyKey, caller: Caller): Member {
  if (company === 'B') return world.users.B.ADMIN;
  return caller === 'anonymous' || caller === 'SERVICE' ? world.users.A.ADMIN : memberOf(world, caller);
}

/** An export done (its ZIP there): in A asked by the person themself, in B by the platform administrator. */
async function privacyJob(world: World, company: CompanyKey, caller: Caller): Promise<string> {
  const subject = privacySubject(world, company, caller);
  const res = await world.request(company === 'A' ? subject.token : world.host.token, {
    method: 'POST',
    url: '/api/privacy/export',
    payload: { userId: subject.id },
  });
  if (res.statusCode !== 202) throw new Error(`privacy job fixture: ${res.statusCode} ${res.body}`);
  await world.earshot.settle();
  return (res.json() as { jobId: string }).jobId;
}

export const REQUEST_OVERRIDES: Record<
  string,
  (world: World, company: CompanyKey, caller: Caller) => Promise<Partial<InjectOptions>>
> = {
  'POST /api/privacy/export': async (world, company, caller) => ({
    payload: { userId: privacySubject(world, company, caller).id },
  }),
  'PUT /api/tags/:name': tagRequest,
  'DELETE /api/tags/:name': tagRequest,
  'POST /api/files/upload': async () => multipart({}, { name: 'call.wav', type: 'audio/wav', data: spokenWav() }),
  'POST /api/users/profile/avatar': async () => multipart({}, { name: 'me.png', type: 'image/png', data: PNG }),
  'POST /api/custom-gpt/:id/files': async () =>
    multipart({}, { name: 'policy.md', type: 'text/markdown', data: Buffer.from('# Policy\n\nMatrix upload.') }),
  'POST /api/companies/upload': async (world, company) => ({
    url: `/api/companies/upload?companyId=${world.companies[company].id}&kind=logo`,
    ...multipart({}, { name: 'logo.png', type: 'image/png', data: PNG }),
  }),
  // Signing out ends the session presented: never the one the rest of the matrix goes on using.
  'POST /api/auth/logout': async (world, _company, caller) =>
    caller === 'anonymous' || caller === 'SERVICE'
      ? {}
      : { headers: { authorization: `Bearer ${await world.signInAgain(memberOf(world, caller))}` } },
  'PUT /api/transcripts/:transcriptId/metadata/words/:wordId': async (world, company) => ({
    payload: { text: 'corrected', speakerSegmentId: (await completedTranscript(world, company)).segmentId },
  }),
  // A word of the segment (its first: a 400, as a segment cannot be split before it; nothing changes).
  'POST /api/transcripts/:fileId/segments/:segmentId/split': async (world, company) => ({
    payload: { wordId: (await completedTranscript(world, company)).wordId },
  }),
  // A question about the company's recording (the example names no real one).
  'POST /api/chat/analysis-conversations/chat/stream': async (world, company) => ({
    payload: {
      fileId: (await completedTranscript(world, company)).fileId,
      message: 'Summarize this recording',
      modelId: 'built-in',
    },
  }),
  'POST /api/chat/feedback': async (world, company, caller) => ({
    payload: { messageId: await sharedReply(world, ownerToken(world, company, caller)), rating: 'up' },
  }),
  'POST /api/analysis/transcripts': async (world, company) => ({
    payload: {
      fileId: (await completedTranscript(world, company)).fileId,
      promptId: await sharedPrompt(world, company),
    },
  }),
  // The company's hash chain (no companyId would be the platform's).
  'GET /api/audit/verify': async (world, company) => ({
    url: `/api/audit/verify?companyId=${world.companies[company].id}`,
  }),
  // The company's chain as it grows: answered once the stream is open, which stays open until the
  // server closes (so the answer is taken as a stream, its status read without waiting for an end).
  'GET /api/audit/stream': async (world, company) => ({
    url: `/api/audit/stream?companyId=${world.companies[company].id}`,
    payloadAsStream: true,
  }),
  'GET /api/analysis/transcripts': async (world, company) => ({
    url: `/api/analysis/transcripts?fileId=${(await completedTranscript(world, company)).fileId}`,
  }),
  // An edit keeps the prompt its company's alone (the example would make it global).
  'PUT /api/prompts/:id': async (world, company) => ({ payload: promptBody(world, company) }),
  // The platform administrator makes it for the company (an ADMIN's is their own company's anyway).
  'POST /api/analysis/patterns': async (world, company) => ({
    payload: {
      name: 'Matrix pattern',
      promptIds: [await sharedPrompt(world, company)],
      companyId: world.companies[company].id,
    },
  }),
  'PUT /api/analysis/patterns/:id': async (world, company) => ({
    payload: { name: 'Matrix pattern', promptIds: [await sharedPrompt(world, company)] },
  }),
  // Keys are changed on a company of their own: company A's key goes on acting as SERVICE in the walk.
  'POST /api/companies/:id/api-key': async (world, company) => ({
    url: `/api/companies/${await spareCompany(world, company)}/api-key`,
  }),
  'DELETE /api/companies/:id/api-key': async (world, company) => ({
    url: `/api/companies/${await spareCompany(world, company)}/api-key`,
  }),
  // A company's own version of a template names that company.
  'POST /api/email': async (world, company) => ({
    payload: {
      type: 'invitation',
      language: 'fr',
      companyId: world.companies[company].id,
      subject: 'Bienvenue',
      html: '<p>{{link}}</p>',
      text: '{{link}}',
    },
  }),
  'POST /api/ai/config/model': async (world) => ({
    payload: {
      providerId: await sharedAiProvider(world),
      name: `matrix-${Math.random().toString(36).slice(2)}`,
      purpose: 'chat',
    },
  }),
};
