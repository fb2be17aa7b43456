// Where a test run's time goes: at the end of a run, the slowest suites with their durations and
// jest project, and the whole list in a JSON file (TEST_TIMINGS_FILE, default
// test-results/timings.json) so the next person can see what to speed up or split.
//
// Options (jest.config.js): { slowest: how many to print (20) }.
const { mkdirSync, writeFileSync } = require('node:fs');
const { dirname, relative, resolve } = require('node:path');

class TimingReporter {
  constructor(globalConfig, options = {}) {
    this.rootDir = globalConfig.rootDir;
    this.slowest = options.slowest ?? 20;
    this.started = Date.now();
  }

  onRunStart() {
    this.started = Date.now();
  }

  onRunComplete(_contexts, results) {
    const wallSeconds = (Date.now() - this.started) / 1000;
    const suites = results.testResults
      .map((suite) => ({
        path: relative(this.rootDir, suite.testFilePath),
        project: suite.displayName?.name ?? suite.displayName ?? '',
        seconds: Math.max(0, (suite.perfStats.end - suite.perfStats.start) / 1000),
        tests: suite.testResults.length,
        failed: suite.numFailingTests > 0 || Boolean(suite.testExecError),
      }))
      .sort((a, b) => b.seconds - a.seconds);
    const suiteSeconds = suites.reduce((sum, suite) => sum + suite.seconds, 0);

    const file = resolve(this.rootDir, process.env.TEST_TIMINGS_FILE ?? 'test-results/timings.json');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(
      file,
      `${JSON.stringify({ finishedAt: new Date().toISOString(), wallSeconds, suiteSeconds, suites }, null, 2)}\n`,
    );

    const lines = suites.slice(0, this.slowest).map((suite) => {
      const mark = suite.failed ? ' FAILED' : '';
      return `${suite.seconds.toFixed(1).padStart(7)} s  ${suite.project.padEnd(8)} ${suite.path}${mark}`;
    });
    const shown = relative(this.rootDir, file).startsWith('..') ? file : relative(this.rootDir, file);
    process.stdout.write(
      `\nSlowest ${lines.length} of ${suites.length} suites (wall ${wallSeconds.toFixed(0)} s, ` +
        `suites ${suiteSeconds.toFixed(0)} s in total; all in ${shown}):\n` +
        `${lines.join('\n')}\n`,
    );
  }
}

module.exports = TimingReporter;
