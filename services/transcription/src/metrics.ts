import { metricOnce, prometheus, ScrapedMetric, type ScrapedSource, type ServiceContext } from '@earshot/kit';
import { TRANSCRIPTION_STATUSES } from '@earshot/contracts';
import type { TranscriptionConfig } from './config';
import * as jobsRepo from './repositories/jobs';
import { exportRenderer } from './services/exports/renderer';

const jobsByState = new ScrapedMetric('earshot_transcription_jobs', 'Transcription jobs by state', ['state']);
const oldestDue = new ScrapedMetric(
  'earshot_transcription_queue_oldest_wait_seconds',
  'How long the longest-waiting due job has waited for a worker (0 when none waits)',
  [],
);

const exportRenders = new ScrapedMetric(
  'earshot_export_renders',
  'Exports rendering in their threads and waiting for one (EXPORT_WORKERS), every company together',
  ['state'],
);

/** Observed as each job is claimed: from when it became due (queued, or its retry came due) to the claim. */
export const queueWait = metricOnce(
  'earshot_transcription_queue_wait_seconds',
  () =>
    new prometheus.Histogram({
      name: 'earshot_transcription_queue_wait_seconds',
      help: 'Time a transcription job waited in the queue before a worker claimed it',
      buckets: [0.1, 0.5, 1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600],
    }),
);

/** The queue's state, read from the jobs table when Prometheus scrapes. */
export function transcriptionMetrics(ctx: ServiceContext<TranscriptionConfig>): ScrapedSource[] {
  return [
    {
      metric: jobsByState,
      what: 'the transcription jobs',
      async read() {
        const counts = new Map((await jobsRepo.countByStatus(ctx.db)).map((r) => [r.status, r.count]));
        // Every state, zeros too: an alert on "processing" must see 0, not an absent series.
        return TRANSCRIPTION_STATUSES.filter((s) => s !== 'not_started').map((state) => ({
          labels: { state },
          value: counts.get(state) ?? 0,
        }));
      },
    },
    {
      metric: oldestDue,
      what: 'the transcription queue',
      read: async () => [{ labels: {}, value: await jobsRepo.oldestDueWaitSeconds(ctx.db) }],
    },
    {
      metric: exportRenders,
      what: 'the export threads',
      read: async () => {
        const { rendering, waiting } = exportRenderer(ctx).load;
        return [
          { labels: { state: 'rendering' }, value: rendering },
          { labels: { state: 'waiting' }, value: waiting },
        ];
      },
    },
  ];
}
