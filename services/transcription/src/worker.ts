/**
 * A stand-alone transcription worker (distributed mode): `npm run worker -w services/transcription`.
 * It serves no API, only /health and /ready on PORT for probes. It claims jobs from the shared
 * jobs table (many workers are safe: SKIP LOCKED claims, leases with heartbeats, lease-checked
 * results), publishes its status events through the outbox relay, and joins the
 * `transcription-worker` consumer group, so file.uploaded events (Kafka) become jobs even while
 * the API service is down. On SIGTERM it stops claiming and finishes or hands back its jobs
 * (TRANSCRIPTION_DRAIN_MS).
 */
import { runStandalone } from '@earshot/kit';
import { transcriptionWorkerService } from './worker-service';

// Whatever the environment says, this process exists to work.
process.env.TRANSCRIPTION_WORKER = 'true';

await runStandalone(transcriptionWorkerService);
