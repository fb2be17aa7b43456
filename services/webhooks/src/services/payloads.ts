import type { EventOf, EventType, WebhookData, WebhookEventType } from '@earshot/contracts';

/** What a receiver gets as `data` (its shape as the contracts document it), and the webhook type it is sent as. */
export type Payload = { [T in WebhookEventType]: { type: T; data: WebhookData<T> } }[WebhookEventType];

/** A link into the console: receivers show it to people, who sign in to see the rest. */
export type LinkTo = (path: string) => string;

const file = (link: LinkTo, fileId: string) => ({ fileId, link: link(`/transcripts/${encodeURIComponent(fileId)}`) });

/**
 * The internal events offered as webhooks, each turned into its webhook's data: ids, names and
 * links, never a word of a transcript (so what a company's redaction removed cannot leave through
 * a webhook) and never a secret. An event that maps to nothing (a transcription that moved to a
 * status other than failed; the later parts of an edit) is not sent.
 */
export const PAYLOADS: { [T in EventType]?: (event: EventOf<T>, link: LinkTo) => Payload | null } = {
  'file.uploaded': ({ data }, link) => ({
    type: 'file.uploaded',
    data: {
      ...file(link, data.id),
      fileName: data.originalName,
      mimeType: data.mimeType,
      size: data.size,
      clientId: data.clientId,
      uploadedBy: data.uploadedBy,
    },
  }),
  'transcript.completed': ({ data }, link) => ({
    type: 'transcript.completed',
    data: {
      transcriptId: data.id,
      ...file(link, data.fileId),
      fileName: data.fileName,
      engine: data.engine,
      duration: data.duration,
      speakers: data.speakers,
      words: data.words,
    },
  }),
  'transcript.status_changed': ({ data }, link) =>
    data.status === 'failed'
      ? { type: 'transcript.failed', data: { ...file(link, data.fileId), reason: data.reason ?? null } }
      : null,
  // An edit comes in parts (large ones): the first stands for the whole edit.
  'transcript.segments_changed': ({ data }, link) =>
    data.part === 0
      ? {
          type: 'transcript.edited',
          data: { transcriptId: data.id, ...file(link, data.fileId), editId: data.editId, kind: data.kind },
        }
      : null,
  'analysis.completed': ({ data }, link) => ({
    type: 'analysis.completed',
    data: {
      runId: data.id,
      fileId: data.fileId,
      promptId: data.promptId,
      promptVersion: data.promptVersion,
      model: data.model,
      durationMs: data.durationMs,
      link: link(`/transcripts/${encodeURIComponent(data.fileId)}/analysis`),
    },
  }),
  'task.created': ({ data }, link) => task('task.created', data, link),
  'task.updated': ({ data }, link) => task('task.updated', data, link),
  'client.created': ({ data }, link) =>
    data.after
      ? {
          type: 'client.created',
          data: {
            clientId: data.id,
            name: data.after.name,
            organisation: data.after.organisation,
            externalId: data.after.externalId,
            link: link(`/client/${encodeURIComponent(data.id)}`),
          },
        }
      : null,
  'user.created': ({ data }) =>
    data.after
      ? {
          type: 'user.created',
          data: {
            userId: data.id,
            firstName: data.after.firstName,
            lastName: data.after.lastName,
            role: data.after.role,
          },
        }
      : null,
};

function task(
  type: 'task.created' | 'task.updated',
  data: EventOf<'task.created'>['data'],
  link: LinkTo,
): Payload | null {
  const after = data.after;
  if (!after) return null;
  return {
    type,
    data: {
      taskId: data.id,
      title: after.title,
      status: after.status,
      assigneeId: after.assigneeId,
      dueDate: after.dueDate,
      clientId: after.clientId,
      fileId: after.link?.fileId ?? null,
      link: link('/task-list'),
    },
  };
}
