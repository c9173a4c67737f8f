import type { TestUserConfig } from 'vitest/config';

/**
 * Vitest's reporters for one run: the default one, and with TEST_REPORT_DIR set (as .ci/run sets
 * it per leg) a JSON report `<run>.json` there, from which scripts/ci-report.ts counts the tests.
 */
export function testReporters(run: 'unit' | 'browser' | 'cluster'): TestUserConfig['reporters'] {
  const folder = process.env.TEST_REPORT_DIR;
  if (!folder) return ['default'];
  return ['default', ['json', { outputFile: `${folder}/${run}.json` }]];
}
