/**
 * The table `.ci/run` ends with: each step's time, and for each leg the tests its runs counted,
 * so a change that makes CI faster by running fewer tests shows as a fallen count.
 *
 * Usage: node --import tsx scripts/ci-report.ts <report folder>
 * The folder holds `steps.tsv` (step name, seconds; one line per step, written by .ci/run) and one
 * folder per leg with vitest's JSON reports (`unit.json`, `browser.json`, `cluster.json`), which
 * the vitest configs write when TEST_REPORT_DIR is set.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface VitestJsonReport {
  numTotalTests: number;
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  testResults: { name: string; startTime: number; endTime: number }[];
}

const folder = process.argv[2];
if (!folder) throw new Error('usage: ci-report.ts <report folder>');

const steps = existsSync(path.join(folder, 'steps.tsv'))
  ? readFileSync(path.join(folder, 'steps.tsv'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split('\t') as [string, string])
  : [];
const total = steps.reduce((sum, [, seconds]) => sum + Number(seconds), 0);
const minutes = (seconds: number) => `${(seconds / 60).toFixed(1)} min`;

console.log('| step | time |');
console.log('|---|---|');
for (const [name, seconds] of steps) console.log(`| ${name} | ${minutes(Number(seconds))} |`);
console.log(`| total | ${minutes(total)} |`);

console.log('\n| leg | run | time | files | tests | passed | failed | skipped | slowest file |');
console.log('|---|---|---|---|---|---|---|---|---|');
const legs = readdirSync(folder, { withFileTypes: true }).filter((entry) => entry.isDirectory());
let failed = 0;
let passed = 0;
let skipped = 0;
for (const leg of legs.map((entry) => entry.name).sort()) {
  for (const run of ['unit', 'browser', 'cluster']) {
    const file = path.join(folder, leg, `${run}.json`);
    if (!existsSync(file)) continue;
    const report = JSON.parse(readFileSync(file, 'utf8')) as VitestJsonReport;
    const slowest = report.testResults
      .map((result) => ({ name: result.name, seconds: (result.endTime - result.startTime) / 1000 }))
      .sort((a, b) => b.seconds - a.seconds)[0];
    const slowestText = slowest
      ? `${path.basename(slowest.name)} (${slowest.seconds.toFixed(0)} s)`
      : '';
    const notRun = report.numPendingTests + report.numTodoTests;
    // From the first file's start to the last one's end: the run's time without the web app's
    // build or the server's start before it.
    const ran =
      (Math.max(...report.testResults.map((result) => result.endTime)) -
        Math.min(...report.testResults.map((result) => result.startTime))) /
      1000;
    console.log(
      `| ${leg} | ${run} | ${minutes(ran)} | ${report.testResults.length} | ${report.numTotalTests} | ` +
        `${report.numPassedTests} | ${report.numFailedTests} | ${notRun} | ${slowestText} |`,
    );
    failed += report.numFailedTests;
    passed += report.numPassedTests;
    skipped += notRun;
  }
}
// The plain closing line a reader of CI's log (or a tool) takes the whole run's counts from.
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
