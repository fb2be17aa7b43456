import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { topicOf } from '@earshot/contracts';
import { createTestStack, type TestStack } from '@earshot/kit/testing';
import { transcriptionService } from '@earshot/transcription-service';
import { transcriptionWorkerService } from '../services/transcription/src/worker-service';

// The transcription workers scale on their backlog through KEDA (k8s/transcription-worker-scaler.yaml,
// docs/decisions/0022-scale-workers-on-the-backlog.md). KEDA cannot run on the build machines: this
// renders the kustomize base with kubectl, as an operator applies it, holds the ScaledObject to the
// code (topic, consumer group, the worker's concurrency and drain bound), and runs its queue query
// on the real transcription schema.

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

interface Doc {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string };
  data?: Record<string, string>;
  spec?: Record<string, unknown>;
}
interface Trigger {
  type: string;
  metadata: Record<string, string>;
}
interface ScaledObjectSpec {
  scaleTargetRef: { apiVersion: string; kind: string; name: string };
  minReplicaCount: number;
  maxReplicaCount: number;
  cooldownPeriod: number;
  pollingInterval: number;
  triggers: Trigger[];
}
interface WorkerSpec {
  template: {
    spec: {
      terminationGracePeriodSeconds: number;
      containers: { name: string; env: { name: string; value?: string }[] }[];
    };
  };
}

const rendered: Doc[] = parseAllDocuments(
  execFileSync('kubectl', ['kustomize', join(root, 'k8s')], { encoding: 'utf8' }),
).map((d) => d.toJS() as Doc);
const find = (kind: string, name: string) => rendered.find((d) => d.kind === kind && d.metadata.name === name);
const scaled = find('ScaledObject', 'transcription-worker')!;
const spec = scaled?.spec as unknown as ScaledObjectSpec;
const trigger = (type: string) => spec.triggers.find((t) => t.type === type)!;
const worker = find('Deployment', 'transcription-worker')!.spec as unknown as WorkerSpec;
const workerEnv = (name: string) => worker.template.spec.containers[0]!.env.find((e) => e.name === name)?.value ?? '';

test('kubectl kustomize renders a KEDA ScaledObject for the transcription worker Deployment, from zero', () => {
  expect(scaled).toMatchObject({ apiVersion: 'keda.sh/v1alpha1', metadata: { namespace: 'earshot' } });
  expect(spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'transcription-worker' });
  expect(spec.minReplicaCount).toBe(0);
  expect(spec.maxReplicaCount).toBeGreaterThan(1);
  expect(spec.cooldownPeriod).toBeGreaterThan(0);
  expect(spec.pollingInterval).toBeGreaterThan(0);
  expect(spec.triggers.map((t) => t.type).sort()).toEqual(['kafka', 'postgresql']);
});

test('no other autoscaler fights KEDA over the worker', () => {
  const autoscalers = rendered.filter((d) => d.kind === 'HorizontalPodAutoscaler');
  expect(
    autoscalers.filter(
      (d) => (d.spec as { scaleTargetRef: { name: string } }).scaleTargetRef.name === 'transcription-worker',
    ),
  ).toEqual([]);
});

test('the Kafka trigger reads the lag of the workers’ own consumer group on the topic of file.uploaded', () => {
  const { metadata } = trigger('kafka');
  expect(metadata.topic).toBe(topicOf('file.uploaded'));
  // The kit names a service's consumer group after its module: the worker's, not the API's.
  expect(metadata.consumerGroup).toBe(transcriptionWorkerService.name);
  expect(metadata.consumerGroup).not.toBe(transcriptionService.name);
  // The same brokers the processes are given (an overlay must replace both).
  expect(metadata.bootstrapServers).toBe(find('ConfigMap', 'earshot-config')!.data!.KAFKA_BROKERS);
  expect(Number(metadata.lagThreshold)).toBe(Number(workerEnv('TRANSCRIPTION_CONCURRENCY')));
  expect(metadata.activationLagThreshold).toBe('0');
  expect(metadata.offsetResetPolicy).toBe('earliest');
});

test('the PostgreSQL trigger counts the queue per worker slot with the worker’s own database URL', () => {
  const { metadata } = trigger('postgresql');
  expect(metadata.connectionFromEnv).toBe('DATABASE_URL');
  expect(worker.template.spec.containers[0]!.env.map((e) => e.name)).toContain('DATABASE_URL');
  expect(Number(metadata.targetQueryValue)).toBe(Number(workerEnv('TRANSCRIPTION_CONCURRENCY')));
  expect(metadata.activationTargetQueryValue).toBe('0');
});

test('a scaled-in worker has time to finish its jobs: the grace period covers its drain bound', () => {
  const drainMs = Number(workerEnv('TRANSCRIPTION_DRAIN_MS'));
  expect(drainMs).toBeGreaterThan(0);
  // The hand-back, Kafka's leave and the database's close come after the drain.
  expect(worker.template.spec.terminationGracePeriodSeconds * 1000).toBeGreaterThanOrEqual(drainMs + 15_000);
});

describe('the queue query, on the transcription schema', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await createTestStack([transcriptionService], { TRANSCRIPTION_WORKER: 'false' });
  }, 60_000);
  afterAll(async () => stack?.close());

  test('counts jobs due or running, not finished ones nor retries still backing off', async () => {
    const company = randomUUID();
    const rows: [string, string, string | null][] = [
      ['pending', "now() - interval '1 second'", null],
      ['pending', "now() - interval '1 second'", null],
      ['processing', 'now()', 'worker-a'],
      ['pending', "now() + interval '10 minutes'", null],
      ['completed', 'now()', null],
      ['failed', 'now()', null],
    ];
    for (const [status, due, lockedBy] of rows) {
      const fileId = randomUUID();
      await stack.database.query(
        `insert into transcription.transcripts (id, file_id, company_id, storage_key, filename, original_name, mime_type, size, uploaded_at)
         values ($1, $2, $3, 'k', 'f.wav', 'f.wav', 'audio/wav', 1, now())`,
        [randomUUID(), fileId, company],
      );
      await stack.database.query(
        `insert into transcription.jobs (file_id, company_id, status, next_attempt_at, locked_by, locked_until)
         values ($1, $2, $3, ${due}, $4, ${lockedBy ? "now() + interval '1 minute'" : 'null'})`,
        [fileId, company, status, lockedBy],
      );
    }
    const [answer] = await stack.database.query<{ count: string | number }>(trigger('postgresql').metadata.query!);
    expect(Number(answer!.count)).toBe(3);
  });
});
