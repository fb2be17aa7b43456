import { randomUUID } from 'node:crypto';
import {
  CLIENT_NOTES_MAX,
  EVENT_CATALOGUE,
  HOLD_REASON_MAX,
  PROMPT_LIMITS,
  SSO_MAX_DOMAINS,
  SSO_MAX_ROLE_MAP,
  TAG_LENGTH_MAX,
  TASK_LIMITS,
  TAGS_PER_FILE_MAX,
  UPLOAD_SPEAKERS_MAX,
  WEBHOOK_EVENT_NAMES,
  WEBHOOK_LIMITS,
  type EventType,
} from '@earshot/contracts';
import { buildEnvelope, type NewEvent } from '@earshot/kit';
import { segmentsChangedEvents } from '../src/services/edits/service';
import { mergeSpeakers } from '../src/services/edits/ops';
import { segmentFacts } from '../src/services/facts';
import { completionEvents } from '../src/services/queue';
import { buildSegments, MAX_SEGMENT_SECONDS, segmentText, speakersFor } from '../src/services/segments';

// Events stay small whatever the recording: a 3-hour call (about 30,000 words) must not ride in
// one event. Every event type of the catalogue is built for such a transcript, the transcript's own
// events by the code that emits them, and each serialised envelope must stay under 256 KB.
const LIMIT = 256 * 1024;
const HOURS = 3;
const DURATION = HOURS * 3600;
const WORDS = 30_000;

/** Two speakers taking turns, words of up to 14 letters, ~2.8 words a second. */
function longCall() {
  const vocabulary = [
    'refrigerated',
    'reconciliation',
    'invoice',
    'a',
    'delivery',
    'warehouse',
    'confirmation',
    'to',
    'of',
    'the',
    'approximately',
    'Tallinn',
  ];
  const step = DURATION / WORDS;
  const channels = [
    { speakerId: 'speaker_0', words: [] as { text: string; start: number; end: number }[] },
    { speakerId: 'speaker_1', words: [] as { text: string; start: number; end: number }[] },
  ];
  for (let i = 0; i < WORDS; i++) {
    const turn = Math.floor((i * step) / 45) % 2;
    channels[turn]!.words.push({
      text: vocabulary[i % vocabulary.length]!,
      start: i * step,
      end: i * step + step * 0.9,
    });
  }
  const segments = buildSegments(channels, DURATION, 'run1');
  return {
    engine: 'pocketsphinx',
    duration: DURATION,
    speakers: speakersFor(2),
    segments,
    peaks: { version: 1 as const, duration: DURATION, pointsPerSecond: 10, length: 0, data: [] },
  };
}

const id = randomUUID();
const fileId = randomUUID();
const companyId = randomUUID();
const actor = { type: 'system' as const, id: null };
const result = longCall();
const longest = result.segments.reduce((a, b) => (b.words.length > a.words.length ? b : a));
const transcriptEvents = completionEvents(
  companyId,
  { id, fileId, fileName: `${'long-name-'.repeat(20)}.wav` },
  result,
);
// The largest edits: one speaker merged into the other (half of the segments told again), and
// every segment removed at once.
const merge = mergeSpeakers(result, 'speaker_1', 'speaker_0');
const editEvents = [
  ...segmentsChangedEvents(
    companyId,
    { id, fileId, editId: id, kind: merge.kind },
    [],
    segmentFacts(merge.after, merge.speakers!.after),
    actor,
  ),
  ...segmentsChangedEvents(
    companyId,
    { id, fileId, editId: id, kind: 'replace' },
    result.segments.map((s) => s._id),
    [],
    actor,
  ),
];

const user = {
  email: 'a@b.test',
  firstName: 'A',
  lastName: 'B',
  role: 'USER' as const,
  companyId,
  status: 'active' as const,
  monthlyCredits: 1e9,
};
const company = { name: 'Acme', code: 'acme', domain: 'acme', status: 'active', maxUsers: 10, maxStorage: 1e9 };
const client = {
  name: 'C'.repeat(120),
  organisation: 'O'.repeat(200),
  email: 'c@b.test',
  phone: '+372 5555 5555',
  externalId: 'X'.repeat(128),
  notes: 'N'.repeat(CLIENT_NOTES_MAX),
  ownerId: id,
};
const provider = {
  name: 'P',
  kind: 'openai-compatible' as const,
  baseUrl: 'https://api.example.com/v1',
  enabled: true,
  apiKeyLast4: '1234',
};
const model = {
  providerId: id,
  name: 'm',
  label: 'M',
  purpose: 'chat' as const,
  isDefault: true,
  contextSize: 8192,
  enabled: true,
};
// A prompt shared with as many companies and people as it may be, with the most fields.
const audience = Array.from({ length: PROMPT_LIMITS.audienceMax }, () => randomUUID());
const promptState = {
  name: 'p'.repeat(PROMPT_LIMITS.nameMax),
  type: 'custom' as const,
  scope: 'company' as const,
  isGlobal: false,
  companies: audience,
  users: audience,
  version: 1,
  fields: Array.from({ length: PROMPT_LIMITS.fieldsMax }, () => 'f'.repeat(PROMPT_LIMITS.fieldNameMax)),
};
const pattern = {
  name: 'p'.repeat(PROMPT_LIMITS.nameMax),
  companyId,
  promptIds: Array.from({ length: PROMPT_LIMITS.patternPromptsMax }, () => randomUUID()),
  autoRun: 'company_transcripts' as const,
};
const template = {
  type: 'password_reset' as const,
  language: 'en' as const,
  companyId,
  subject: 'S'.repeat(300),
  html: 'h'.repeat(60_000),
  text: 't'.repeat(30_000),
};
const edit = (data: NewEvent['data']): NewEvent['data'] => data;
// A task at its largest: the longest title and description, and the most action items a run proposes.
const task = {
  title: 't'.repeat(TASK_LIMITS.titleMax),
  description: 'd'.repeat(TASK_LIMITS.descriptionMax),
  status: 'in_progress' as const,
  assigneeId: id,
  dueDate: '2026-12-31',
  clientId: id,
  link: { fileId, seconds: 3600 },
  createdBy: id,
};
// A webhook endpoint at its largest: the longest address and description, every event type.
const webhook = {
  url: `https://${'h'.repeat(WEBHOOK_LIMITS.urlLength - 8)}`,
  events: [...WEBHOOK_EVENT_NAMES],
  description: 'd'.repeat(WEBHOOK_LIMITS.description),
  enabled: true,
};
// A privacy part's counts at their largest: 20 kinds, each named in 60 characters.
const counts = Object.fromEntries(
  Array.from({ length: 20 }, (_, i) => [`${'k'.repeat(58)}${String(i).padStart(2, '0')}`, 1_000_000_000]),
);
const actionItems = Array.from({ length: 50 }, () => ({
  title: 'a'.repeat(200),
  owner: 'o'.repeat(120),
  due: '2026-12-31',
}));

/** Every other event type, at its largest for this transcript. */
const samples: Record<
  Exclude<EventType, 'transcript.completed' | 'transcript.text_published' | 'transcript.segments_changed'>,
  NewEvent['data']
> = {
  'user.signed_in': { id, email: user.email, method: 'password' },
  'user.sign_in_failed': { id, email: user.email, reason: 'sso_email_unverified', issuer: 'i'.repeat(500) },
  'sso.configured': {
    companyId: id,
    issuer: 'i'.repeat(500),
    clientId: 'c'.repeat(255),
    domains: Array.from({ length: SSO_MAX_DOMAINS }, () => 'd'.repeat(253)),
    required: true,
    defaultRole: 'USER',
    roleClaim: 'r'.repeat(100),
    roleMap: Object.fromEntries(
      Array.from({ length: SSO_MAX_ROLE_MAP }, (_, i) => [`${'g'.repeat(198)}${String(i).padStart(2, '0')}`, 'ADMIN']),
    ),
    secretChanged: true,
  },
  'sso.removed': { companyId: id },
  'user.signed_out': { id },
  'user.session_revoked': { id, reason: 'reuse' },
  'user.sessions_ended': {
    userId: id,
    sessionIds: Array.from({ length: 1000 }, () => id),
    reason: 'company_blocked',
    until: new Date().toISOString(),
  },
  'user.created': { id, before: null, after: user },
  'user.updated': { id, before: user, after: user },
  'user.deleted': { id, before: user, after: null },
  'user.password_changed': { id, via: 'profile' },
  'user.password_reset_requested': {
    id,
    email: user.email,
    firstName: 'Ada',
    lastName: 'Lovelace',
    sealedLink: `v1:${'A'.repeat(200)}`,
    expiresInMinutes: 30,
  },
  'user.invited': {
    id,
    email: user.email,
    firstName: 'Ada',
    lastName: 'Lovelace',
    sealedLink: `v1:${'A'.repeat(200)}`,
    expiresInDays: 7,
    resent: true,
  },
  'user.invitation_revoked': { id, email: user.email },
  'user.two_step_changed': { id, enabled: true },
  'company.created': { id, before: null, after: company },
  'client.created': { id, before: null, after: client },
  'client.updated': { id, before: client, after: client },
  'client.deleted': { id, before: client, after: null },
  'company.updated': { id, before: company, after: company },
  'company.deleted': { id, before: company, after: null },
  'company.api_key_rotated': { id },
  'company.api_key_revoked': { id },
  'company.features_changed': { id, before: { chat: false }, after: { chat: true } },
  'transcript.audio_redacted': { fileId, size: 2 ** 40, spans: 100_000 },
  'company.policies_changed': {
    id,
    before: {
      redaction: 'off',
      keepOriginal: false,
      encryption: false,
      retention: { recordingsDays: null, chatsDays: null, auditDays: null },
    },
    after: {
      redaction: 'text_audio',
      keepOriginal: false,
      encryption: false,
      retention: { recordingsDays: 36_500, chatsDays: 36_500, auditDays: 36_500 },
    },
  },
  // Legal hold: the longest reason allowed, placed or lifted.
  'file.hold_changed': { id: fileId, hold: true, reason: 'r'.repeat(HOLD_REASON_MAX) },
  'client.hold_changed': { id, hold: false, reason: 'r'.repeat(HOLD_REASON_MAX) },
  'company.hold_changed': { id, hold: true, reason: 'r'.repeat(HOLD_REASON_MAX) },
  'retention.applied': {
    service: 'file',
    removed: { recordings: 1_000_000 },
    days: 36_500,
    olderThan: new Date().toISOString(),
    held: 1_000_000,
  },
  // A person's data: the manifest's key stands for however many recordings the person has.
  'privacy.export_requested': { jobId: id, subject: { kind: 'client', id } },
  'privacy.part_ready': { jobId: id, service: 'file', manifest: `privacy/${id}/file.manifest.json`, counts },
  'privacy.erase_requested': { jobId: id, subject: { kind: 'user', id }, recordings: 'delete' },
  'privacy.part_erased': { jobId: id, service: 'file', counts },
  'privacy.erased': {
    jobId: id,
    subject: { kind: 'client', id },
    recordings: 'keep',
    parts: Object.fromEntries(Array.from({ length: 20 }, (_, s) => [`service${s}`, counts])),
  },
  'feature.platform_switched': { key: 'chat', enabled: false },
  'company.data_removed': { companyId: id, service: 'transcription' },
  // Encryption at rest.
  'company.key_destroyed': { companyId: id, service: 'transcription', reason: 'company_deleted' },
  'company.encryption_progressed': {
    companyId: id,
    service: 'transcription',
    done: 2 ** 31,
    total: 2 ** 31,
    state: 'running',
  },
  'file.uploaded': {
    id: fileId,
    storageKey: `${companyId}/${fileId}.wav`,
    originalName: 'call.wav',
    mimeType: 'audio/wav',
    size: 350_000_000,
    clientId: null,
    uploadedBy: id,
    estimatedSeconds: 10_800,
    language: 'auto',
    speakers: UPLOAD_SPEAKERS_MAX,
  },
  'file.deleted': { id: fileId, storageKey: `${companyId}/${fileId}.wav` },
  'file.tags_changed': {
    id: fileId,
    before: { tags: [] },
    after: { tags: Array.from({ length: TAGS_PER_FILE_MAX }, (_, n) => String(n).padEnd(TAG_LENGTH_MAX, 't')) },
  },
  'transcript.status_changed': { fileId, status: 'failed', reason: 'x'.repeat(2000), attempt: 4 },
  // The longest segment, every word replaced by the longest word allowed.
  'transcript.word_edited': edit({
    id,
    fileId,
    wordId: longest.words[0]!._id,
    segmentId: longest._id,
    segmentText: segmentText(longest.words.map(() => ({ text: 'w'.repeat(100) }))),
    before: { text: 'a' },
    after: { text: 'w'.repeat(100) },
  }),
  'transcript.speakers_changed': {
    id,
    fileId,
    speakers: Array.from({ length: 50 }, (_, n) => ({ speakerId: `speaker_${n}`, name: 'N'.repeat(80) })),
  },
  'transcript.client_linked': { id, fileId, before: { clientId: null }, after: { clientId: id } },
  'transcript.deleted': { id, fileId },
  'transcript.original_read': { id, fileId, what: 'audio' },
  'speech_model.ready': { name: 'large-v3-turbo', sha256: 'a'.repeat(64), sizeBytes: 1_624_555_275 },
  'speech_model.removed': { name: 'large-v3-turbo' },
  'speech_model.default_changed': { name: 'large-v3-turbo', before: 'base.en' },
  'conversation.created': { id },
  'conversation.renamed': { id },
  'conversation.deleted': { id },
  'chat_reply.finished': {
    conversationId: id,
    messageId: id,
    model: 'm',
    providerId: id,
    builtIn: false,
    status: 'complete',
    usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 },
    modelId: id,
    customGptId: id,
  },
  'embeddings.used': { modelId: id, tokens: 1_000_000, purpose: 'reembed', customGptId: id, fileId: id },
  'chat_feedback.given': { id, messageId: id, rating: 'up', hasComment: true },
  'custom_gpt.created': {
    id,
    scope: 'platform',
    visibility: 'users',
    enabled: true,
    modelId: id,
    searchTranscripts: true,
    duplicateOf: id,
  },
  'custom_gpt.updated': {
    id,
    changed: [
      'name',
      'description',
      'avatar',
      'instructions',
      'modelId',
      'starters',
      'searchTranscripts',
      'visibility',
      'userIds',
      'enabled',
      'companyIds',
    ],
    visibility: 'users',
    enabled: true,
    modelId: id,
  },
  'custom_gpt.deleted': { id, files: 100 },
  'knowledge_file.added': {
    id,
    customGptId: id,
    mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    size: 20 * 1024 * 1024,
  },
  'knowledge_file.ready': { id, customGptId: id, pages: 10_000, chunks: 1_000_000, embeddingsModelId: id },
  'knowledge_file.failed': { id, customGptId: id, reason: 'x'.repeat(1_000) },
  'knowledge_file.deleted': { id, customGptId: id },
  'ai_provider.created': { id, before: null, after: provider, apiKeySealed: 'v1:' + 'A'.repeat(200) },
  'ai_provider.updated': { id, before: provider, after: provider, apiKeySealed: 'v1:' + 'A'.repeat(200) },
  'ai_provider.deleted': { id, before: provider, after: null },
  'ai_model.created': { id, before: null, after: model },
  'ai_model.updated': { id, before: model, after: model },
  'ai_model.deleted': { id, before: model, after: null },
  'prompt.created': { id, before: null, after: promptState },
  'prompt.updated': { id, before: promptState, after: promptState },
  'prompt.deleted': { id, before: promptState, after: null },
  'analysis_pattern.created': { id, before: null, after: pattern },
  'analysis_pattern.updated': { id, before: pattern, after: pattern },
  'analysis_pattern.deleted': { id, before: pattern, after: null },
  // The largest template the API accepts: 60 KB of HTML and 30 KB of text, before and after.
  'email_template.created': { id, before: null, after: template },
  'email_template.updated': { id, before: template, after: template },
  'email_template.deleted': { id, before: template, after: null },
  // The audit trail on Kafka: the largest audited event (a template update) in its canonical form,
  // which holds its before and after twice (apart, and inside data).
  'audit.entry_recorded': {
    companyId,
    seq: Number.MAX_SAFE_INTEGER,
    prevHash: 'f'.repeat(64),
    hash: 'f'.repeat(64),
    entry: {
      v: 1,
      prevHash: 'f'.repeat(64),
      id,
      occurredAt: new Date().toISOString(),
      type: 'email_template.updated',
      version: 1,
      companyId,
      actor: { type: 'user', id, email: user.email, role: 'HOST_ADMIN', ip: '2001:db8::1' },
      target: { type: 'email_template', id },
      before: template,
      after: template,
      data: { id, before: template, after: template },
    },
  },
  'audit.anchor_recorded': {
    day: '2026-11-29',
    at: new Date().toISOString(),
    // A platform with 1,000 companies, each chain named with its head.
    heads: Array.from({ length: 1000 }, () => ({ chain: id, entries: 2 ** 40, head: 'f'.repeat(64) })),
  },
  'mail.sent': { id, type: 'password_reset', to: user.email, transport: 'smtp', attempts: 1 },
  'mail.failed': { id, type: 'password_reset', to: user.email, attempts: 5, reason: 'x'.repeat(500) },
  'analysis.completed': {
    id,
    fileId,
    promptId: id,
    promptVersion: 1_000,
    patternId: id,
    model: 'm'.repeat(200),
    usage: { inputTokens: 1e9, outputTokens: 1e9 },
    durationMs: 3_600_000,
    userId: id,
  },
  'analysis.action_items_proposed': { runId: id, fileId, items: actionItems },
  'task.created': { id, before: null, after: task },
  'task.updated': { id, before: task, after: task },
  'task.deleted': { id, before: task, after: null },
  'task.fell_due': { id, title: task.title, assigneeId: id, dueDate: task.dueDate },
  'analysis.failed': {
    id,
    fileId,
    promptId: id,
    promptVersion: 1_000,
    patternId: id,
    model: 'm'.repeat(200),
    usage: { inputTokens: 1e9, outputTokens: 1e9 },
    durationMs: 3_600_000,
    userId: id,
    reason: 'r'.repeat(2_000),
  },
  'price.set': {
    id,
    modelId: 'm'.repeat(128),
    engine: null,
    unit: 'output_1k',
    credits: 1e9,
    effectiveFrom: new Date().toISOString(),
  },
  'pricing.currency_changed': {
    before: { currency: 'EUR', creditRate: 0.01 },
    after: { currency: 'USD', creditRate: 0.011 },
  },
  'credits.granted': { entryId: id, amount: 1e9, reason: 'r'.repeat(500), monthly: false, balance: 1e13 },
  'credits.adjusted': { entryId: id, amount: -1e9, reason: 'r'.repeat(500), balance: -1e13 },
  'credits.settings_changed': {
    id,
    before: { monthlyBudget: null, monthlyGrant: null },
    after: { monthlyBudget: 1e9, monthlyGrant: 1e9 },
  },
  'credits.threshold_reached': { scope: 'user', userId: id, threshold: 100, month: '2026-11', spent: 1e13, limit: 1e9 },
  'webhook_endpoint.created': { id, before: null, after: webhook },
  'webhook_endpoint.updated': { id, before: webhook, after: webhook },
  'webhook_endpoint.deleted': { id, before: webhook, after: null },
  'webhook_endpoint.secret_rotated': { id, previousValidUntil: new Date().toISOString() },
  'webhook_endpoint.disabled': {
    id,
    url: webhook.url,
    failingSince: new Date().toISOString(),
    lastError: 'e'.repeat(500),
  },
};

const events: NewEvent[] = [
  ...transcriptEvents,
  ...editEvents,
  ...Object.entries(samples).map(([type, data]) => ({ type, companyId, actor, data })),
];

test('the generated call is a 3-hour transcript of about 30,000 words in segments of at most 30 seconds', () => {
  expect(result.segments.reduce((n, s) => n + s.words.length, 0)).toBe(WORDS);
  expect(Math.max(...result.segments.map((s) => s.end! - s.start))).toBeLessThanOrEqual(MAX_SEGMENT_SECONDS);
});

test('a speaker merge of the whole call is told in several parts, each segment once', () => {
  const told = editEvents.filter((e) => (e.data.segments as unknown[]).length > 0);
  expect(told.length).toBeGreaterThan(1);
  expect(told.map((e) => e.data.part)).toEqual(told.map((_, i) => i));
  expect(told.flatMap((e) => (e.data.segments as { segmentId: string }[]).map((s) => s.segmentId))).toEqual(
    merge.after.map((s) => s._id),
  );
});

test('every event type of the catalogue is built for it', () => {
  expect([...new Set(events.map((e) => e.type))].sort()).toEqual(EVENT_CATALOGUE.map((e) => e.type).sort());
});

// An audit entry carries an audited event's before and after twice (the canonical form the chain
// hashes cannot change), so it may reach twice an event: still far under Kafka's 1 MB default.
const limitOf = (type: string) => (type === 'audit.entry_recorded' ? 2 * LIMIT : LIMIT);

test.each(events.map((e, i) => [`${e.type} #${i}`, e] as const))('%s serialises under its limit', (_name, event) => {
  const envelope = buildEnvelope(event);
  expect(Buffer.byteLength(JSON.stringify(envelope))).toBeLessThan(limitOf(event.type));
});

test("the transcript's text reaches other services whole, in order, across its parts", () => {
  const [completed, ...rest] = transcriptEvents;
  const parts = rest.filter((e) => e.type === 'transcript.text_published');
  expect(completed!.data).toMatchObject({ parts: parts.length });
  expect(parts.length).toBeGreaterThan(1);
  const texts = parts.flatMap((p) => (p.data.segments as { text: string }[]).map((s) => s.text));
  expect(texts).toEqual(result.segments.map((s) => s.text));
});
