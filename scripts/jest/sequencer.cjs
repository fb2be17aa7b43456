// The order files start in: the longest first, so that the run ends with short files on both
// workers instead of one long file on one while the other waits. A file's length is its time in
// the last run's timing report (test-results/timings.json, per project), else its time in
// SLOW_SUITES (a fresh clone has no report), else whatever jest itself knows (its cache of the last
// run on this machine, or the file's size).
const { readFileSync } = require('node:fs');
const { join, relative } = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

// Seconds of the slowest files in a fresh-clone CI run (see docs/performance.md, The test run; the
// run of 2026-11-29 19:55 on a machine half as fast as the earlier ones); the rest fill in behind them.
const SLOW_SUITES = {
  postgres: {
    'gateway/test/matrix.test.ts': 258,
    'tests/system/transcription/worker-shutdown.postgres.test.ts': 170,
    'tests/system/chat/knowledge.test.ts': 127,
    'deploy/db-roles.postgres.test.ts': 95,
    'tests/system/transcription/export-isolation.test.ts': 67,
  },
  browser: {
    'web/e2e/every-page.e2e.test.ts': 221,
    'web/e2e/dashboards.e2e.test.ts': 171,
    'web/e2e/transcript-editor.e2e.test.ts': 144,
    'web/e2e/any-address.e2e.test.ts': 142,
    'web/e2e/calendar-inbox.e2e.test.ts': 122,
    'web/e2e/library.e2e.test.ts': 121,
    'web/e2e/tasks.e2e.test.ts': 106,
    'web/e2e/chat.e2e.test.ts': 83,
    'web/e2e/console.e2e.test.ts': 81,
    'web/e2e/analysis.e2e.test.ts': 76,
  },
};

function lastRun(rootDir) {
  const file = process.env.TEST_TIMINGS_FILE ?? join(rootDir, 'test-results', 'timings.json');
  const seconds = {};
  try {
    for (const suite of JSON.parse(readFileSync(file, 'utf8')).suites) {
      seconds[`${suite.project} ${suite.path}`] = suite.seconds;
    }
  } catch {
    // No report yet (a fresh clone) or an unreadable one: the list above decides.
  }
  return seconds;
}

class LongestFirstSequencer extends Sequencer {
  sort(tests) {
    const known = [];
    const rest = [];
    const reports = new Map();
    for (const test of tests) {
      const { rootDir, displayName } = test.context.config;
      if (!reports.has(rootDir)) reports.set(rootDir, lastRun(rootDir));
      const project = displayName?.name ?? '';
      const path = relative(rootDir, test.path);
      const seconds = reports.get(rootDir)[`${project} ${path}`] ?? SLOW_SUITES[project]?.[path];
      if (seconds === undefined) rest.push(test);
      else known.push({ test, seconds });
    }
    known.sort((a, b) => b.seconds - a.seconds);
    return [...known.map(({ test }) => test), ...super.sort(rest)];
  }
}

module.exports = LongestFirstSequencer;
