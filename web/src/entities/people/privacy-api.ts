// A person's data: export it as a ZIP, or erase it, through a job every service answers.
// The account page (one's own export) and the users and clients pages (an ADMIN's people) share
// these calls, so they live here rather than in one of those features. Only lazy page chunks
// import this file.
import { skipToken } from '@reduxjs/toolkit/query/react';
import { useEffect, useState } from 'react';
import type { PrivacyEraseBody, PrivacyExportBody, PrivacyJobDto } from '@earshot/contracts';
import { api } from '../../lib/api';

/** How often a running job is asked again: services answer through events, within seconds. */
export const PRIVACY_POLL_MS = 1500;

/** Whose data: a user (an account) or a client contact, with what the screens call them. */
export interface PrivacyPerson {
  kind: 'user' | 'client';
  id: string;
  name: string;
  email: string | null;
}

const subjectOf = (person: PrivacyPerson): PrivacyExportBody =>
  person.kind === 'user' ? { userId: person.id } : { clientId: person.id };

// An erasure changes what the users, clients and recordings lists hold: their tags are read again.
export const privacyApi = api.enhanceEndpoints({ addTagTypes: ['Users', 'Clients', 'Files'] }).injectEndpoints({
  endpoints: (build) => ({
    exportPersonData: build.mutation<{ jobId: string }, PrivacyPerson>({
      query: (person) => ({ url: '/privacy/export', method: 'POST', body: subjectOf(person) }),
    }),
    erasePerson: build.mutation<
      { jobId: string },
      { person: PrivacyPerson; recordings: PrivacyEraseBody['recordings'] }
    >({
      query: ({ person, recordings }) => ({
        url: '/privacy/erase',
        method: 'POST',
        body: { ...subjectOf(person), recordings } satisfies PrivacyEraseBody,
      }),
    }),
    privacyJob: build.query<PrivacyJobDto, string>({
      query: (jobId) => `/privacy/jobs/${encodeURIComponent(jobId)}`,
      // Every answer is news while the job runs: nothing to share between screens.
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useExportPersonDataMutation, useErasePersonMutation } = privacyApi;

/**
 * The job, asked again every PRIVACY_POLL_MS while it runs; no more once it is done or failed.
 * `running` is true from the start until then (also before the first answer).
 */
export function usePrivacyJob(jobId: string | null): {
  job: PrivacyJobDto | undefined;
  error: unknown;
  running: boolean;
} {
  const [polling, setPolling] = useState(true);
  // Kept up while the tab is in the background: a person may wait for a large export elsewhere.
  const query = privacyApi.usePrivacyJobQuery(jobId ?? skipToken, {
    pollingInterval: polling ? PRIVACY_POLL_MS : 0,
    skipPollingIfUnfocused: false,
  });
  // This job's answer only: never the previous job's while a new one is asked for.
  const job = query.currentData;
  const status = job?.status;
  // An error (the job gone, the rights lost) is shown, not asked about again and again.
  const settled = query.isError || status === 'done' || status === 'failed';
  useEffect(() => setPolling(!settled), [settled]);
  return { job, error: query.error, running: jobId !== null && !settled };
}

/** Services that answered, out of all: the job's progress. */
export function privacyProgress(job: Pick<PrivacyJobDto, 'parts' | 'pendingServices'>): {
  done: number;
  total: number;
} {
  return { done: job.parts.length, total: job.parts.length + job.pendingServices.length };
}
