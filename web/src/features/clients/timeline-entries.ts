// The client profile's timeline, newest first: the client's calls (from the client detail API),
// its tasks (GET /tasks?clientId=) and when the client was added or last changed.
import type { ClientDetailDto, TaskDto } from '@earshot/contracts';

export type TimelineEntry =
  | { kind: 'created'; key: string; at: string }
  | { kind: 'updated'; key: string; at: string }
  | {
      kind: 'call';
      key: string;
      at: string;
      fileId: string;
      name: string | null;
      seconds: number | null;
      status: string;
    }
  | { kind: 'task'; key: string; at: string; task: TaskDto };

export function timelineEntries(client: ClientDetailDto, tasks: TaskDto[]): TimelineEntry[] {
  const entries: TimelineEntry[] = [
    { kind: 'created' as const, key: 'created', at: client.createdAt },
    ...(client.updatedAt !== client.createdAt
      ? [{ kind: 'updated' as const, key: 'updated', at: client.updatedAt }]
      : []),
    ...client.recordings.flatMap((recording) =>
      recording.uploadedAt
        ? [
            {
              kind: 'call' as const,
              key: `call-${recording.fileId}`,
              at: recording.uploadedAt,
              fileId: recording.fileId,
              name: recording.name,
              seconds: recording.duration,
              status: recording.status,
            },
          ]
        : [],
    ),
    ...tasks.map((task) => ({ kind: 'task' as const, key: `task-${task._id}`, at: task.createdAt, task })),
  ];
  // ISO 8601 instants from different services may differ in precision: compare them as times.
  return entries.sort((a, b) => Date.parse(b.at) - Date.parse(a.at) || a.key.localeCompare(b.key));
}
