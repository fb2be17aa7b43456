import type { ClientErrorReportBody } from '@earshot/contracts';
import { sendJson } from './fetch-json';

/** Stack frames beyond these say little more and only grow the log line. */
const FRAMES = 6;

/**
 * Tells the server a page failed to render, so it reaches the operators' log. Only the error and the
 * path go: no query string, no form contents. A refused or failed report is dropped, never retried,
 * so a page that keeps failing cannot turn into a request loop.
 */
export function reportCrash(error: Error): void {
  const report: ClientErrorReportBody = {
    name: (error.name || 'Error').slice(0, 100),
    message: error.message.slice(0, 500),
    path: window.location.pathname.slice(0, 300) || '/',
    stack: error.stack?.split('\n').slice(0, FRAMES).join('\n').slice(0, 2_000),
  };
  void sendJson('/users/client-errors', report);
}
