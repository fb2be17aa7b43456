/**
 * Why a job did not produce a transcript, in words a person can act on. `retryable` failures
 * (a provider timing out, a busy server) are tried again with back-off; the others (a missing
 * program, audio that cannot be decoded) fail the job at once.
 */
export class JobError extends Error {
  constructor(
    readonly reason: string,
    readonly retryable: boolean,
  ) {
    super(reason);
    this.name = 'JobError';
  }
}

/** The reason to record for any error: a JobError's own, otherwise a generic one (details go to the log). */
export function reasonOf(error: unknown): { reason: string; retryable: boolean } {
  if (error instanceof JobError) return { reason: error.reason, retryable: error.retryable };
  return { reason: 'Transcription failed unexpectedly on the server; it will be retried', retryable: true };
}
